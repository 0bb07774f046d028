/* blinkengage inspect: what the SDK of a running app on a storage directory does, live. An SDK with its flight
 * recorder on (be_config_set_recorder(); on by default in development mode) appends each request and decision to
 * <storage>/<key's directory>/recorder.jsonl; this follows that file (across its rotation to recorder.jsonl.1)
 * and prints each line made terminal-safe, or exports the file as HAR 1.2 with be_recorder_har(). It opens no SDK
 * and takes no lock: the app keeps running as it was. Part of command_line.c (one translation unit). */
#include <sys/stat.h>
#include <time.h>

enum { INSPECT_MAX_FILE = 4 * 1024 * 1024 };

/* The key's directory below `root`, as the SDK names it: 16 hex digits of FNV-1a-64 of the key's bytes. */
static void inspect_recorder_path(const char *root, const char *key, char *out, size_t size) {
    uint64_t hash = 0xcbf29ce484222325ULL;
    const unsigned char *p = (const unsigned char *)key;
    size_t length = strlen(root);
    while (*p) hash = (hash ^ *p++) * 0x100000001b3ULL;
    while (length > 1 && root[length - 1] == '/') length--;
    snprintf(out, size, "%.*s/%016llx/recorder.jsonl", (int)length, root, (unsigned long long)hash);
}

/* Reads up to INSPECT_MAX_FILE bytes of `path` from `offset`; NULL when it cannot be opened. */
static char *inspect_read(const char *path, long offset, size_t *out_length) {
    FILE *file = fopen(path, "rb");
    char *text;
    size_t length;
    if (!file) return NULL;
    if (offset > 0 && fseek(file, offset, SEEK_SET) != 0) {
        fclose(file);
        return NULL;
    }
    text = malloc(INSPECT_MAX_FILE + 1);
    length = text ? fread(text, 1, INSPECT_MAX_FILE, file) : 0;
    fclose(file);
    if (!text) return NULL;
    text[length] = 0;
    *out_length = length;
    return text;
}

/* Prints each complete line of `text` terminal-safe; returns how many bytes it consumed. */
static size_t inspect_print_lines(const char *text, size_t length) {
    size_t start = 0, i;
    char safe[8192];
    for (i = 0; i < length; i++) {
        if (text[i] != '\n') continue;
        char line[4096];
        size_t n = i - start < sizeof line - 1 ? i - start : sizeof line - 1;
        memcpy(line, text + start, n);
        line[n] = 0;
        printf("%s\n", terminal_safe(line, safe, sizeof safe));
        start = i + 1;
    }
    fflush(stdout);
    return start;
}

/* Prints what the file holds, then (unless `once`) what is appended, for ever. */
static int run_inspect_follow(const char *path, int once) {
    long offset = 0;
    ino_t inode = 0;
    struct stat status;
    if (stat(path, &status) != 0 && once) {
        fprintf(stderr, "%s: no recorder file at %s (is the SDK's flight recorder on, with this storage and key?)\n", program, path);
        return EXIT_NO;
    }
    for (;;) {
        if (stat(path, &status) == 0) {
            size_t length = 0;
            char *text;
            /* Rotated (a new file) or cut: read the new one from its start. */
            if (status.st_ino != inode || status.st_size < offset) offset = 0;
            inode = status.st_ino;
            if (status.st_size > offset && (text = inspect_read(path, offset, &length)) != NULL) {
                offset += (long)inspect_print_lines(text, length);
                free(text);
            }
        }
        if (once) return 0;
        struct timespec pause = {0, 250000000}; /* a terminal tool: four looks a second */
        nanosleep(&pause, NULL);
    }
}

/* Writes the HAR of the older generation and the current file into `har_path` ("-": standard output). */
static int run_inspect_har(const char *path, const char *har_path) {
    char older[1200], *first, *second, *joined, *har = NULL;
    size_t first_length = 0, second_length = 0;
    be_status status;
    FILE *out;
    snprintf(older, sizeof older, "%s.1", path);
    first = inspect_read(older, 0, &first_length);
    second = inspect_read(path, 0, &second_length);
    if (!second && !first) {
        fprintf(stderr, "%s: no recorder file at %s\n", program, path);
        return EXIT_NO;
    }
    joined = malloc(first_length + second_length + 1);
    if (!joined) return EXIT_NO;
    memcpy(joined, first ? first : "", first_length);
    memcpy(joined + first_length, second ? second : "", second_length);
    joined[first_length + second_length] = 0;
    free(first);
    free(second);
    status = be_recorder_har(joined, &har);
    free(joined);
    if (status != BE_OK) {
        fprintf(stderr, "%s: %s: %s\n", program, be_status_string(status), be_last_error_message());
        return EXIT_NO;
    }
    out = strcmp(har_path, "-") == 0 ? stdout : fopen(har_path, "wb");
    if (!out || fputs(har, out) < 0 || fputc('\n', out) < 0 || (out != stdout && fclose(out) != 0)) {
        fprintf(stderr, "%s: cannot write %s\n", program, har_path);
        be_string_free(har);
        return EXIT_NO;
    }
    be_string_free(har);
    return 0;
}
