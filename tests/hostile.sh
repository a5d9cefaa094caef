#!/bin/sh
# hostile.sh - runs scripts/hostile.sh (about a thousand hostile inputs through
# every command: exit 2, one stderr line, no file touched, no inf/nan printed).
exec sh "$(dirname "$0")/../scripts/hostile.sh"
