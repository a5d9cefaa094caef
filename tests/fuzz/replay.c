/* replay.c - run a fuzz target's entry point on files, without libFuzzer:
 * every corpus seed and every regression case (a crash the fuzzer once
 * found) is replayed by ctest in the normal and the sanitizer build.
 * usage: fuzz_replay_X FILE_OR_DIR... */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "util/fsio.h"

int LLVMFuzzerTestOneInput(const unsigned char *data, size_t size);

static int replay_file(const char *path)
{
    char *buf;
    size_t len;
    gc_err_t e;
    if (gc_file_read(path, 64u << 20, &buf, &len, &e) != 0) {
        fprintf(stderr, "%s\n", e.msg);
        return 1;
    }
    LLVMFuzzerTestOneInput((const unsigned char *)buf, len);
    free(buf);
    return 0;
}

int main(int argc, char **argv)
{
    int n = 0, bad = 0;
    for (int i = 1; i < argc; i++) {
        struct stat st;
        if (stat(argv[i], &st) != 0)
            continue;
        if (!S_ISDIR(st.st_mode)) {
            bad |= replay_file(argv[i]);
            n++;
            continue;
        }
        DIR *d = opendir(argv[i]);
        struct dirent *de;
        while (d && (de = readdir(d))) {
            if (de->d_name[0] == '.')
                continue;
            char p[4096];
            snprintf(p, sizeof(p), "%s/%s", argv[i], de->d_name);
            bad |= replay_file(p);
            n++;
        }
        if (d)
            closedir(d);
    }
    printf("replayed %d inputs\n", n);
    return bad;
}
