/* suggest.h - the closest of a list of known words to a misspelt one, for
 * "unknown key 'colaesced' (did you mean 'coalesced'?)" messages.
 *
 * Distance: Damerau-Levenshtein (optimal string alignment: insert, delete,
 * substitute, swap two neighbours, each 1), case-insensitive. A word is
 * suggested only when it is close enough to be a likely typo: at most
 * max(2, strlen(word) / 3) edits (1 for words of 1 or 2 bytes), or the one
 * word is a prefix of the other (3 bytes or more).
 * Reads and writes nothing else; reentrant.
 */
#ifndef GC_SUGGEST_H
#define GC_SUGGEST_H

#include <stddef.h>

/* Edit distance between a and b (each at most 63 bytes are compared;
 * longer tails count as one edit per byte). */
int gc_suggest_distance(const char *a, const char *b);

/* The closest of the n words (NULL entries skipped) to word, or NULL when
 * none is close enough. Ties: the first in the list. */
const char *gc_suggest(const char *word, const char *const *words, size_t n);

/* " (did you mean 'X'?)" into buf, or "" when nothing is close; returns buf. */
const char *gc_suggest_hint(const char *word, const char *const *words, size_t n, char *buf,
                            size_t bufn);

#endif
