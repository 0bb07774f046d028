/* blinkengage — try the service from a terminal: offers, the feed, zone ads, images and what a storage
 * directory holds, through the public C API only. `blinkengage --help` and `blinkengage COMMAND --help` say
 * how; `man blinkengage` says more.
 *
 * Exit status: 0 success, 1 the service (or the storage) said no, 2 a usage error. Errors go to stderr with
 * their domain and code. Tables by default (bold headings on a terminal unless NO_COLOR is set), stable JSON
 * with --json. */
#define _POSIX_C_SOURCE 200809L
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/types.h>
#include <sys/wait.h>
#include <unistd.h>

#include "blinkengage.h"

enum { EXIT_NO = 1, EXIT_USAGE = 2, MAX_PAYLOAD = 32, MAX_ROWS = 256, MAX_COLUMNS = 6, MAX_CELL = 48, MAX_ARGUMENT = 8192 };

typedef struct {
    const char *command, *key, *placement, *user, *moments_url, *engage_url, *zone_template, *storage, *output, *har, *open;
    const char *positional[2];
    const char *payload[MAX_PAYLOAD];
    int payload_count, positional_count, json, sandbox, verbose, once;
    long timeout_ms;
} options;

static const char *program = "blinkengage";

/* ---- usage -------------------------------------------------------------------------------------------- */

static const char *usage_text(const char *command) {
    if (!command) {
        return "usage: blinkengage COMMAND [OPTIONS]\n"
               "\n"
               "commands:\n"
               "  offers    Moments offers for a placement\n"
               "  feed      the client-side offer feed of a user\n"
               "  wall      the offer wall of a user, as the SDK walks it\n"
               "  zone-ad   the legacy ad of a zone\n"
               "  image     download an image through the SDK's caches\n"
               "  stats     what a storage directory holds\n"
               "  inspect   follow what the SDK of a running app does (its flight recorder)\n"
               "\n"
               "options of every command:\n"
               "  --json               stable JSON instead of a table\n"
               "  --sandbox            start the local sandbox and point every URL at it\n"
               "  --moments-url URL    the Moments API base URL\n"
               "  --engage-url URL     the Engage base URL (feed, events)\n"
               "  --storage DIR        the storage directory (default: ~/.local/state/blinkengage)\n"
               "  --timeout-ms N       the request timeout (default 15000)\n"
               "  --verbose            the SDK's log on stderr\n"
               "  --help               this text; `blinkengage COMMAND --help` for a command\n"
               "  --version            the library's version\n"
               "\n"
               "exit status: 0 success, 1 the service said no, 2 usage\n";
    }
    if (strcmp(command, "offers") == 0)
        return "usage: blinkengage offers --key KEY [--placement P] [--payload k=v]... [--json]\n"
               "Fetches Moments offers and lists id, title, advertiser and call to action.\n"
               "  --key KEY        the API key (the sandbox's is demo-key)\n"
               "  --placement P    the placement (payload \"placement\")\n"
               "  --payload k=v    a payload attribute; repeat for more (email=..., country=...)\n";
    if (strcmp(command, "feed") == 0)
        return "usage: blinkengage feed --key KEY --user USER [--json]\n"
               "Registers USER when needed and loads the offer feed (needs --engage-url or --sandbox).\n";
    if (strcmp(command, "wall") == 0)
        return "usage: blinkengage wall --key KEY --user USER [--open G | --open G.O] [--json]\n"
               "Loads the feed and shows the offer wall: every group with its offers, or with --open group G's\n"
               "offers or offer O of group G's details. What it prints counts as shown: the SDK records did_appear\n"
               "for each offer it lists, view_all or did_tap for what --open opens, and delivers them.\n";
    if (strcmp(command, "zone-ad") == 0)
        return "usage: blinkengage zone-ad --url TEMPLATE ZONE [--json]\n"
               "Fetches the ad of ZONE; TEMPLATE contains {zone} (with --sandbox it may be left out).\n";
    if (strcmp(command, "image") == 0)
        return "usage: blinkengage image URL -o FILE [--json]\n"
               "Downloads an image through the SDK's memory and disk caches; FILE \"-\" is standard output.\n";
    if (strcmp(command, "inspect") == 0)
        return "usage: blinkengage inspect --storage DIR [--key KEY] [--once] [--har FILE]\n"
               "  follows the flight recorder of the SDK using DIR (be_config_set_recorder()): each request and\n"
               "  decision as a JSON line, live; --once prints what is there and stops; --har FILE writes it as HAR 1.2\n"
               "  (\"-\": standard output)\n";
    if (strcmp(command, "stats") == 0)
        return "usage: blinkengage stats --storage DIR [--key KEY] [--json]\n"
               "Reads what the storage of KEY (default demo-key) holds, changing nothing.\n";
    return NULL;
}

static int usage_error(const options *o, const char *format, ...) {
    va_list arguments;
    fprintf(stderr, "%s: ", program);
    va_start(arguments, format);
    vfprintf(stderr, format, arguments);
    va_end(arguments);
    fprintf(stderr, "\nsee `blinkengage %s%s--help`\n", o->command ? o->command : "", o->command ? " " : "");
    return EXIT_USAGE;
}

/* ---- output ------------------------------------------------------------------------------------------- */

static int use_color(void) {
    const char *term = getenv("TERM");
    return isatty(STDOUT_FILENO) && !getenv("NO_COLOR") && term && strcmp(term, "dumb") != 0;
}

/* The length of the well-formed UTF-8 sequence at `p` (1 to 4), or 0 when the bytes there are not one (a stray
 * continuation byte, an overlong form, a surrogate, past U+10FFFF, cut short). */
static size_t utf8_sequence(const unsigned char *p) {
    size_t n, i;
    unsigned long code;
    if (p[0] < 0x80) return 1;
    if (p[0] >= 0xC2 && p[0] <= 0xDF) n = 2, code = p[0] & 0x1F;
    else if (p[0] >= 0xE0 && p[0] <= 0xEF) n = 3, code = p[0] & 0x0F;
    else if (p[0] >= 0xF0 && p[0] <= 0xF4) n = 4, code = p[0] & 0x07;
    else return 0;
    for (i = 1; i < n; i++) {
        if ((p[i] & 0xC0) != 0x80) return 0;
        code = code << 6 | (p[i] & 0x3F);
    }
    if ((n == 3 && (code < 0x800 || (code >= 0xD800 && code <= 0xDFFF))) || (n == 4 && (code < 0x10000 || code > 0x10FFFF)))
        return 0;
    return n;
}

/* Whether a well-formed sequence is a C1 control (U+0080...U+009F): terminals read some as CSI or OSC. */
static int is_c1(const unsigned char *p, size_t n) { return n == 2 && p[0] == 0xC2 && p[1] <= 0x9F; }

/* A JSON string (or null): valid JSON for any bytes. Controls, DEL and C1 controls are escaped; a byte that is not
 * part of well-formed UTF-8 becomes U+FFFD. */
static void json_string(const char *text) {
    const unsigned char *p = (const unsigned char *)text;
    if (!text) {
        fputs("null", stdout);
        return;
    }
    putchar('"');
    while (*p) {
        size_t n = utf8_sequence(p);
        if (n == 0) {
            fputs("\\ufffd", stdout);
            p++;
            continue;
        }
        if (is_c1(p, n)) {
            printf("\\u%04x", p[1]);
            p += n;
            continue;
        }
        switch (*p) {
        case '"': fputs("\\\"", stdout); break;
        case '\\': fputs("\\\\", stdout); break;
        case '\n': fputs("\\n", stdout); break;
        case '\r': fputs("\\r", stdout); break;
        case '\t': fputs("\\t", stdout); break;
        default:
            if (*p < 0x20 || *p == 0x7F) printf("\\u%04x", *p);
            else fwrite(p, 1, n, stdout);
        }
        p += n;
    }
    putchar('"');
}

/* `text` as it may reach a terminal, into `out` (`size` bytes at least 4): every C0 control (ESC among them),
 * DEL and C1 control becomes a space (tab, CR and LF) or U+FFFD (the rest), and so does a byte that is not
 * well-formed UTF-8, so server text can never set a title, clear the screen or make a link. */
static const char *terminal_safe(const char *text, char *out, size_t size) {
    const unsigned char *p = (const unsigned char *)text;
    size_t used = 0;
    if (!text) return NULL;
    while (*p && used + 4 < size) {
        size_t n = utf8_sequence(p);
        if (n == 1 && (*p == '\n' || *p == '\r' || *p == '\t')) {
            out[used++] = ' ';
        } else if (n == 0 || (n == 1 && (*p < 0x20 || *p == 0x7F)) || is_c1(p, n)) {
            memcpy(out + used, "\xef\xbf\xbd", 3);
            used += 3;
        } else {
            memcpy(out + used, p, n);
            used += n;
        }
        p += n ? n : 1;
    }
    out[used] = 0;
    return out;
}

static void json_member(const char *name, const char *value, int last) {
    json_string(name);
    fputs(": ", stdout);
    json_string(value);
    if (!last) fputs(", ", stdout);
}

/* Characters (code points) of UTF-8 text. */
static size_t text_width(const char *text) {
    size_t n = 0;
    for (; text && *text; text++) n += ((unsigned char)*text & 0xC0) != 0x80;
    return n;
}

/* A table: headings, then rows of cells, aligned; cells longer than MAX_CELL characters end in "…". */
typedef struct {
    const char *headings[MAX_COLUMNS];
    char cells[MAX_ROWS][MAX_COLUMNS][MAX_CELL * 4 + 4];
    int columns, rows;
} table;

static void table_add(table *t, const char *const *values) {
    int c;
    if (t->rows >= MAX_ROWS) return;
    for (c = 0; c < t->columns; c++) {
        char safe[MAX_CELL * 4 * 3 + 16];
        const char *value = values[c] ? terminal_safe(values[c], safe, sizeof safe) : "-";
        char *cell = t->cells[t->rows][c];
        size_t out = 0, chars = 0;
        for (; *value && chars < MAX_CELL; value++) {
            unsigned char byte = (unsigned char)*value;
            if ((byte & 0xC0) != 0x80) {
                if (chars == MAX_CELL - 1 && text_width(value) > 1) break;
                chars++;
            }
            cell[out++] = (char)byte;
        }
        if (*value) {
            memcpy(cell + out, "\xe2\x80\xa6", 3); /* … */
            out += 3;
        }
        cell[out] = 0;
    }
    t->rows++;
}

static void table_print(const table *t) {
    size_t widths[MAX_COLUMNS];
    int c, r, color = use_color();
    for (c = 0; c < t->columns; c++) {
        widths[c] = text_width(t->headings[c]);
        for (r = 0; r < t->rows; r++) {
            size_t w = text_width(t->cells[r][c]);
            if (w > widths[c]) widths[c] = w;
        }
    }
    for (c = 0; c < t->columns; c++) {
        printf("%s%s%s", color ? "\033[1m" : "", t->headings[c], color ? "\033[0m" : "");
        if (c + 1 < t->columns) printf("%*s", (int)(widths[c] - text_width(t->headings[c]) + 2), "");
    }
    putchar('\n');
    for (r = 0; r < t->rows; r++) {
        for (c = 0; c < t->columns; c++) {
            fputs(t->cells[r][c], stdout);
            if (c + 1 < t->columns) printf("%*s", (int)(widths[c] - text_width(t->cells[r][c]) + 2), "");
        }
        putchar('\n');
    }
}

/* ---- the sandbox -------------------------------------------------------------------------------------- */

static pid_t sandbox_pid = -1;
static int sandbox_stdin = -1;
static char sandbox_base[512];

/* sandbox/server.py: $BLINKENGAGE_SANDBOX, else beside the installed program, else in a source tree. */
static int find_sandbox(char *path, size_t size) {
    char self[PATH_MAX];
    const char *candidates[] = {"/../share/blinkengage/sandbox/server.py", "/../sandbox/server.py", "/../../sandbox/server.py"};
    ssize_t n;
    size_t i;
    char *slash;
    if (getenv("BLINKENGAGE_SANDBOX")) {
        snprintf(path, size, "%s", getenv("BLINKENGAGE_SANDBOX"));
        return access(path, R_OK) == 0;
    }
    n = readlink("/proc/self/exe", self, sizeof self - 1);
    if (n <= 0) return 0;
    self[n] = 0;
    slash = strrchr(self, '/');
    if (slash) *slash = 0;
    for (i = 0; i < sizeof candidates / sizeof *candidates; i++) {
        snprintf(path, size, "%s%s", self, candidates[i]);
        if (access(path, R_OK) == 0) return 1;
    }
    return 0;
}

static void stop_sandbox(void) {
    if (sandbox_pid > 0) {
        close(sandbox_stdin); /* --exit-on-stdin-eof: it stops by itself */
        kill(sandbox_pid, SIGTERM);
        waitpid(sandbox_pid, NULL, 0);
        sandbox_pid = -1;
    }
}

/* Starts the sandbox on an ephemeral port; its base URL lands in sandbox_base. */
static int start_sandbox(void) {
    char script[PATH_MAX], line[512];
    int to_child[2], from_child[2];
    size_t used = 0;
    if (!find_sandbox(script, sizeof script)) {
        fprintf(stderr, "%s: cannot find the sandbox (sandbox/server.py); set BLINKENGAGE_SANDBOX to it\n", program);
        return 0;
    }
    if (pipe(to_child) != 0 || pipe(from_child) != 0) return 0;
    sandbox_pid = fork();
    if (sandbox_pid == 0) {
        dup2(to_child[0], STDIN_FILENO);
        dup2(from_child[1], STDOUT_FILENO);
        close(to_child[1]);
        close(from_child[0]);
        execlp("python3", "python3", script, "--exit-on-stdin-eof", (char *)NULL);
        _exit(127);
    }
    close(to_child[0]);
    close(from_child[1]);
    sandbox_stdin = to_child[1];
    while (used + 1 < sizeof line) { /* the first line: "listening on http://127.0.0.1:PORT" */
        ssize_t n = read(from_child[0], line + used, 1);
        if (n <= 0 || line[used] == '\n') break;
        used++;
    }
    line[used] = 0;
    close(from_child[0]);
    if (strncmp(line, "listening on ", 13) != 0) {
        fprintf(stderr, "%s: the sandbox did not start\n", program);
        stop_sandbox();
        return 0;
    }
    snprintf(sandbox_base, sizeof sandbox_base, "%s", line + 13);
    return 1;
}

/* ---- the SDK ------------------------------------------------------------------------------------------ */

typedef struct {
    int done;
    char domain[64], message[600];
    int code, http_status, failed;
    be_moments_response *response;
    be_offer_feed *feed;
    be_zone_ad *ad;
    be_image *image;
} outcome;

static void record_error(outcome *o, const be_error *error) {
    if (error) {
        o->failed = 1;
        snprintf(o->domain, sizeof o->domain, "%s", error->domain);
        snprintf(o->message, sizeof o->message, "%s", error->message);
        o->code = error->code;
        o->http_status = error->http_status;
    }
    o->done = 1;
}

static void on_moments(be_moments_response *response, const be_error *error, void *user_data) {
    outcome *o = user_data;
    if (response) o->response = be_moments_response_retain(response);
    record_error(o, error);
}

static void on_feed(be_offer_feed *feed, const be_error *error, void *user_data) {
    outcome *o = user_data;
    if (feed) o->feed = be_offer_feed_retain(feed);
    record_error(o, error);
}

static void on_zone_ad(be_zone_ad *ad, const be_error *error, void *user_data) {
    outcome *o = user_data;
    if (ad) o->ad = be_zone_ad_retain(ad);
    record_error(o, error);
}

static void on_image(be_image *image, const be_error *error, void *user_data) {
    outcome *o = user_data;
    if (image) o->image = be_image_retain(image);
    record_error(o, error);
}

static void on_log(be_log_level level, const char *message, void *user_data) {
    static const char *names[] = {"debug", "info", "warning", "error"};
    (void)user_data;
    fprintf(stderr, "blinkengage [%s] %s\n", (int)level >= 0 && (int)level < 4 ? names[level] : "log", message);
}

/* Runs the SDK's callbacks on this thread until `o` is done. */
static void wait_for(be_sdk *sdk, outcome *o) {
    while (!o->done) {
        struct pollfd ready;
        ready.fd = be_sdk_dispatch_fd(sdk);
        ready.events = POLLIN;
        poll(&ready, 1, 1000);
        be_sdk_dispatch(sdk, 0);
    }
}

static int service_error(const outcome *o) {
    fprintf(stderr, "%s: %s %d: %s", program, o->domain, o->code, o->message);
    if (o->http_status) fprintf(stderr, " (HTTP %d)", o->http_status);
    fputc('\n', stderr);
    return EXIT_NO;
}

static int config_error(const char *what) {
    fprintf(stderr, "%s: %s: %s\n", program, what, be_last_error_message());
    return EXIT_USAGE;
}

static int start_sdk(const options *o, be_sdk **sdk) {
    be_config *config = be_config_new(o->key ? o->key : "demo-key");
    int status = 0;
    if (!config) return config_error("--key");
    if (o->moments_url && be_config_set_moments_url(config, o->moments_url) != BE_OK) status = config_error("--moments-url");
    else if (o->engage_url && be_config_set_engage_url(config, o->engage_url) != BE_OK) status = config_error("--engage-url");
    else if (o->zone_template && be_config_set_zone_ad_url(config, o->zone_template) != BE_OK) status = config_error("--url");
    else if (o->storage && be_config_set_storage_dir(config, o->storage) != BE_OK) status = config_error("--storage");
    else if (o->timeout_ms > 0 && be_config_set_timeout_ms(config, (uint32_t)o->timeout_ms) != BE_OK) status = config_error("--timeout-ms");
    else if (be_config_set_callback_mode(config, BE_CALLBACKS_ON_DISPATCH) != BE_OK) status = config_error("callback mode");
    /* One command, one request: a connection opened ahead would only be a second one. */
    else if (be_config_set_warm_up_at_start(config, 0) != BE_OK) status = config_error("warm-up");
    else if (o->verbose && be_config_set_log_handler(config, on_log, BE_LOG_DEBUG, NULL) != BE_OK) status = config_error("--verbose");
    else if (be_sdk_start(config, sdk) != BE_OK) {
        fprintf(stderr, "%s: cannot start: %s\n", program, be_last_error_message());
        status = EXIT_NO;
    }
    be_config_free(config);
    return status;
}

/* ---- commands ----------------------------------------------------------------------------------------- */

static int run_offers(const options *o) {
    be_sdk *sdk = NULL;
    be_moments_request *request;
    outcome result;
    int status, i;
    size_t n, k;
    if (!o->key) return usage_error(o, "offers needs --key");
    if ((status = start_sdk(o, &sdk)) != 0) return status;
    request = be_moments_request_new();
    if (o->placement && be_moments_request_set_payload(request, "placement", o->placement) != BE_OK) {
        be_moments_request_free(request);
        be_sdk_shutdown(sdk, 0);
        return usage_error(o, "--placement: %s", be_last_error_message());
    }
    for (i = 0; i < o->payload_count; i++) {
        char name[256];
        const char *equals = strchr(o->payload[i], '=');
        size_t length = equals ? (size_t)(equals - o->payload[i]) : 0;
        if (!equals || length == 0 || length >= sizeof name) {
            be_moments_request_free(request);
            be_sdk_shutdown(sdk, 0);
            return usage_error(o, "--payload takes NAME=VALUE, not \"%s\"", o->payload[i]);
        }
        memcpy(name, o->payload[i], length);
        name[length] = 0;
        if (be_moments_request_set_payload(request, name, equals + 1) != BE_OK) {
            be_moments_request_free(request);
            be_sdk_shutdown(sdk, 0);
            return usage_error(o, "--payload %s: %s", o->payload[i], be_last_error_message());
        }
    }
    memset(&result, 0, sizeof result);
    if (be_sdk_fetch_moments_offers(sdk, request, on_moments, &result) != BE_OK) {
        fprintf(stderr, "%s: %s\n", program, be_last_error_message());
        be_moments_request_free(request);
        be_sdk_shutdown(sdk, 0);
        return EXIT_NO;
    }
    wait_for(sdk, &result);
    if (result.failed) {
        status = service_error(&result);
    } else {
        n = be_moments_response_offer_count(result.response);
        if (o->json) {
            printf("{\"count\": %zu, \"offers\": [", n);
            for (k = 0; k < n; k++) {
                const be_offer *offer = be_moments_response_offer_at(result.response, k);
                printf("%s{", k ? ", " : "");
                json_member("id", be_offer_id(offer), 0);
                json_member("title", be_offer_title(offer), 0);
                json_member("description", be_offer_description(offer), 0);
                json_member("advertiser_name", be_offer_field(offer, "advertiser_name"), 0);
                json_member("image_url", be_offer_image_url(offer), 0);
                json_member("click_url", be_offer_click_url(offer), 0);
                json_member("cta_yes", be_offer_cta_yes(offer), 0);
                json_member("cta_no", be_offer_cta_no(offer), 1);
                putchar('}');
            }
            printf("], \"privacy_url\": ");
            json_string(be_moments_response_privacy_url(result.response));
            printf("}\n");
        } else {
            static table t;
            memset(&t, 0, sizeof t);
            t.columns = 4;
            t.headings[0] = "ID";
            t.headings[1] = "TITLE";
            t.headings[2] = "ADVERTISER";
            t.headings[3] = "CALL TO ACTION";
            for (k = 0; k < n; k++) {
                const be_offer *offer = be_moments_response_offer_at(result.response, k);
                const char *row[4];
                row[0] = be_offer_id(offer);
                row[1] = be_offer_title(offer);
                row[2] = be_offer_field(offer, "advertiser_name");
                row[3] = be_offer_cta_yes(offer);
                table_add(&t, row);
            }
            table_print(&t);
            printf("%zu offer%s\n", n, n == 1 ? "" : "s");
        }
    }
    be_moments_response_release(result.response);
    be_moments_request_free(request);
    be_sdk_shutdown(sdk, 0);
    return status;
}

/* Checks --key, --user and the Engage URL for `command`, starts the SDK, sets the user and loads the feed into
 * *result; 0 with the SDK running, or the exit status (the SDK then stopped). */
static int load_user_feed(const options *o, const char *command, be_sdk **sdk, outcome *result) {
    int status;
    if (!o->key) return usage_error(o, "%s needs --key", command);
    if (!o->user) return usage_error(o, "%s needs --user", command);
    if (!o->engage_url) return usage_error(o, "%s needs --engage-url (or --sandbox)", command);
    if ((status = start_sdk(o, sdk)) != 0) return status;
    if (be_sdk_set_user_identity(*sdk, o->user) != BE_OK) {
        be_sdk_shutdown(*sdk, 0);
        return usage_error(o, "--user: %s", be_last_error_message());
    }
    memset(result, 0, sizeof *result);
    be_sdk_load_offer_feed(*sdk, on_feed, result);
    wait_for(*sdk, result);
    if (result->failed) {
        be_sdk_shutdown(*sdk, 0);
        return service_error(result);
    }
    return 0;
}

static int run_feed(const options *o) {
    be_sdk *sdk = NULL;
    outcome result;
    int status;
    size_t g, k, groups, total = 0;
    if ((status = load_user_feed(o, "feed", &sdk, &result)) != 0) return status;
    if (o->json) {
        groups = be_offer_feed_group_count(result.feed);
        printf("{");
        json_member("feed_id", be_offer_feed_id(result.feed), 0);
        printf("\"cached\": %s, \"groups\": [", be_offer_feed_is_cached(result.feed) ? "true" : "false");
        for (g = 0; g < groups; g++) {
            const be_offer_group *group = be_offer_feed_group_at(result.feed, g);
            printf("%s{", g ? ", " : "");
            json_member("id", be_offer_group_id(group), 0);
            json_member("title", be_offer_group_title(group), 0);
            printf("\"offers\": [");
            for (k = 0; k < be_offer_group_offer_count(group); k++) {
                const be_offer *offer = be_offer_group_offer_at(group, k);
                printf("%s{", k ? ", " : "");
                json_member("id", be_offer_id(offer), 0);
                json_member("title", be_offer_title(offer), 0);
                json_member("image_url", be_offer_image_url(offer), 0);
                json_member("click_url", be_offer_click_url(offer), 1);
                putchar('}');
            }
            printf("]}");
        }
        printf("]}\n");
    } else {
        static table t;
        memset(&t, 0, sizeof t);
        t.columns = 3;
        t.headings[0] = "GROUP";
        t.headings[1] = "ID";
        t.headings[2] = "TITLE";
        groups = be_offer_feed_group_count(result.feed);
        for (g = 0; g < groups; g++) {
            const be_offer_group *group = be_offer_feed_group_at(result.feed, g);
            for (k = 0; k < be_offer_group_offer_count(group); k++) {
                const be_offer *offer = be_offer_group_offer_at(group, k);
                const char *row[3];
                row[0] = be_offer_group_title(group);
                row[1] = be_offer_id(offer);
                row[2] = be_offer_title(offer);
                table_add(&t, row);
                total++;
            }
        }
        table_print(&t);
        printf("%zu offer%s in %zu group%s (feed %s%s)\n", total, total == 1 ? "" : "s", groups, groups == 1 ? "" : "s",
               be_offer_feed_id(result.feed) ? be_offer_feed_id(result.feed) : "-",
               be_offer_feed_is_cached(result.feed) ? ", cached" : "");
    }
    be_offer_feed_release(result.feed);
    be_sdk_shutdown(sdk, 0);
    return status;
}

static void print_pairs(const char *const *names, const char *const *values, int count);

/* Prints one offer line of the wall and reports it visible: printed is shown. */
static void wall_offer(be_offer_wall *wall, const be_offer_group *group, size_t g, size_t k, int json, int first) {
    const be_offer *offer = be_offer_group_offer_at(group, k);
    char safe[4096];
    if (json) {
        printf("%s{\"group_position\": %zu, \"offer_position\": %zu, ", first ? "" : ", ", g, k);
        json_member("id", be_offer_id(offer), 0);
        json_member("title", be_offer_title(offer), 1);
        putchar('}');
    } else {
        printf("  [%zu.%zu] %-8s %s\n", g, k, be_offer_id(offer) ? be_offer_id(offer) : "-",
               be_offer_title(offer) ? terminal_safe(be_offer_title(offer), safe, sizeof safe) : "-");
    }
    be_offer_wall_report_visibility(wall, g, k, 1.0);
}

static int run_wall(const options *o) {
    be_sdk *sdk = NULL;
    be_offer_wall *wall = NULL;
    outcome result;
    int status = 0, shown = 0;
    size_t g, k, groups, open_group = 0, open_offer = 0;
    int opens = 0; /* 0 the wall, 1 a group, 2 an offer */
    char safe[4096];
    if (o->open) {
        char *end = NULL;
        open_group = strtoul(o->open, &end, 10);
        opens = 1;
        if (end && *end == '.') {
            open_offer = strtoul(end + 1, &end, 10);
            opens = 2;
        }
        if (end == o->open || !end || *end) return usage_error(o, "--open takes G or G.O (numbers)");
    }
    if ((status = load_user_feed(o, "wall", &sdk, &result)) != 0) return status;
    wall = be_sdk_offer_wall(sdk);
    groups = be_offer_feed_group_count(result.feed);
    if (opens == 1 && be_offer_wall_open_group(wall, open_group) != BE_OK) status = usage_error(o, "--open: %s", be_last_error_message());
    if (opens == 2 && be_offer_wall_open_offer(wall, open_group, open_offer) != BE_OK) status = usage_error(o, "--open: %s", be_last_error_message());
    if (status == 0 && opens == 2) {
        const be_offer *offer = be_offer_wall_current_offer(wall);
        const char *names[5] = {"offer", "title", "description", "yes", "no"};
        const char *values[5];
        values[0] = be_offer_id(offer);
        values[1] = be_offer_title(offer);
        values[2] = be_offer_description(offer);
        values[3] = be_offer_cta_yes(offer);
        values[4] = be_offer_cta_no(offer);
        if (o->json) {
            printf("{");
            json_member("feed_id", be_offer_feed_id(result.feed), 0);
            printf("\"level\": \"offer\", \"group_position\": %zu, \"offer_position\": %zu, ", open_group, open_offer);
            json_member("id", values[0], 0);
            json_member("title", values[1], 0);
            json_member("click_url", be_offer_click_url(offer), 1);
            printf("}\n");
        } else {
            print_pairs(names, values, 5);
        }
        be_offer_wall_report_visibility(wall, open_group, open_offer, 1.0);
    } else if (status == 0) {
        if (o->json) {
            printf("{");
            json_member("feed_id", be_offer_feed_id(result.feed), 0);
            printf("\"level\": \"%s\", \"offers\": [", opens ? "group" : "wall");
        } else {
            printf("Offer wall of feed %s\n", be_offer_feed_id(result.feed) ? be_offer_feed_id(result.feed) : "-");
        }
        for (g = 0; g < groups; g++) {
            const be_offer_group *group = be_offer_feed_group_at(result.feed, g);
            if (opens && g != open_group) continue;
            if (!o->json) {
                printf("%s (%zu)\n", be_offer_group_title(group) ? terminal_safe(be_offer_group_title(group), safe, sizeof safe)
                                                                : be_offer_group_id(group),
                       be_offer_group_offer_count(group));
            }
            for (k = 0; k < be_offer_group_offer_count(group); k++) wall_offer(wall, group, g, k, o->json, shown++ == 0);
        }
        if (o->json) printf("]}\n");
        else printf("%d offer%s shown\n", shown, shown == 1 ? "" : "s");
    }
    be_offer_wall_close(wall);
    be_offer_wall_free(wall);
    /* what the wall recorded goes out now; what cannot stays stored for the next start */
    if (be_sdk_flush(sdk, 10000) != BE_OK && o->verbose) fprintf(stderr, "%s: %s\n", program, be_last_error_message());
    be_offer_feed_release(result.feed);
    be_sdk_shutdown(sdk, 0);
    return status;
}

static void print_pairs(const char *const *names, const char *const *values, int count) {
    int i, width = 0, color = use_color();
    for (i = 0; i < count; i++) {
        int w = (int)strlen(names[i]);
        if (w > width) width = w;
    }
    for (i = 0; i < count; i++) {
        char safe[4096];
        printf("%s%-*s%s  %s\n", color ? "\033[1m" : "", width, names[i], color ? "\033[0m" : "",
               values[i] ? terminal_safe(values[i], safe, sizeof safe) : "-");
    }
}

static int run_zone_ad(const options *o) {
    be_sdk *sdk = NULL;
    outcome result;
    int status;
    if (!o->zone_template) return usage_error(o, "zone-ad needs --url TEMPLATE (or --sandbox)");
    if (o->positional_count != 1) return usage_error(o, "zone-ad takes one ZONE");
    if ((status = start_sdk(o, &sdk)) != 0) return status;
    memset(&result, 0, sizeof result);
    if (be_sdk_fetch_zone_ad(sdk, o->positional[0], on_zone_ad, &result) != BE_OK) {
        be_sdk_shutdown(sdk, 0);
        return usage_error(o, "ZONE: %s", be_last_error_message());
    }
    wait_for(sdk, &result);
    if (result.failed) {
        status = service_error(&result);
    } else if (o->json) {
        printf("{");
        json_member("zone", o->positional[0], 0);
        printf("\"enabled\": %s, ", be_zone_ad_is_enabled(result.ad) ? "true" : "false");
        json_member("image_url", be_zone_ad_image_url(result.ad), 0);
        json_member("link_url", be_zone_ad_link_url(result.ad), 1);
        printf("}\n");
    } else {
        const char *names[] = {"zone", "shown", "image", "link"};
        const char *values[4];
        values[0] = o->positional[0];
        values[1] = be_zone_ad_is_enabled(result.ad) ? "yes" : "no";
        values[2] = be_zone_ad_image_url(result.ad);
        values[3] = be_zone_ad_link_url(result.ad);
        print_pairs(names, values, 4);
    }
    be_zone_ad_release(result.ad);
    be_sdk_shutdown(sdk, 0);
    return status;
}

static int run_image(const options *o) {
    be_sdk *sdk = NULL;
    outcome result;
    int status, to_stdout;
    if (o->positional_count != 1) return usage_error(o, "image takes one URL");
    if (!o->output) return usage_error(o, "image needs -o FILE");
    to_stdout = strcmp(o->output, "-") == 0;
    if (to_stdout && o->json) return usage_error(o, "--json and -o - both want standard output");
    if ((status = start_sdk(o, &sdk)) != 0) return status;
    memset(&result, 0, sizeof result);
    if (be_sdk_fetch_image(sdk, o->positional[0], on_image, &result) != BE_OK) {
        be_sdk_shutdown(sdk, 0);
        return usage_error(o, "URL: %s", be_last_error_message());
    }
    wait_for(sdk, &result);
    if (result.failed) {
        status = service_error(&result);
    } else {
        FILE *file = to_stdout ? stdout : fopen(o->output, "wb");
        size_t size = be_image_size(result.image);
        if (!file || fwrite(be_image_data(result.image), 1, size, file) != size || (!to_stdout && fclose(file) != 0)) {
            fprintf(stderr, "%s: cannot write %s: %s\n", program, o->output, strerror(errno));
            status = EXIT_NO;
        } else if (o->json) {
            char bytes[32];
            snprintf(bytes, sizeof bytes, "%zu", size);
            printf("{");
            json_member("url", o->positional[0], 0);
            json_member("file", o->output, 0);
            printf("\"bytes\": %s, ", bytes);
            json_member("content_type", be_image_content_type(result.image), 0);
            printf("\"from_cache\": %s}\n", be_image_is_from_cache(result.image) ? "true" : "false");
        } else if (!to_stdout) {
            printf("wrote %zu bytes of %s to %s%s\n", size, be_image_content_type(result.image), o->output,
                   be_image_is_from_cache(result.image) ? " (from the cache)" : "");
        }
    }
    be_image_release(result.image);
    be_sdk_shutdown(sdk, 0);
    return status;
}

#include "inspect.h"

static int run_inspect(const options *o) {
    char path[1100];
    if (!o->storage) return usage_error(o, "inspect needs --storage DIR");
    if (strlen(o->storage) > 1000) return usage_error(o, "--storage is longer than 1000 bytes");
    inspect_recorder_path(o->storage, o->key ? o->key : "demo-key", path, sizeof path);
    return o->har ? run_inspect_har(path, o->har) : run_inspect_follow(path, o->once);
}

static int run_stats(const options *o) {
    be_storage_info info;
    be_status status;
    if (!o->storage) return usage_error(o, "stats needs --storage DIR");
    memset(&info, 0, sizeof info);
    info.struct_size = sizeof info;
    status = be_storage_inspect(o->storage, o->key ? o->key : "demo-key", &info);
    if (status != BE_OK) {
        fprintf(stderr, "%s: %s: %s\n", program, be_status_string(status), be_last_error_message());
        return status == BE_ERR_INVALID_ARGUMENT ? EXIT_USAGE : EXIT_NO;
    }
    if (o->json) {
        printf("{\"beacons_queued\": %llu, \"events_queued\": %llu, \"oldest_item_age_s\": %llu, \"database_bytes\": %llu, "
               "\"image_cache_bytes\": %llu, \"image_cache_files\": %llu, \"has_identity\": %s}\n",
               (unsigned long long)info.beacons_queued, (unsigned long long)info.events_queued,
               (unsigned long long)info.oldest_item_age_s, (unsigned long long)info.database_bytes,
               (unsigned long long)info.image_cache_bytes, (unsigned long long)info.image_cache_files,
               info.has_identity ? "true" : "false");
    } else {
        char text[7][32];
        const char *names[] = {"beacons queued", "events queued", "oldest item", "database", "image cache", "images", "identity"};
        const char *values[7];
        int i;
        snprintf(text[0], 32, "%llu", (unsigned long long)info.beacons_queued);
        snprintf(text[1], 32, "%llu", (unsigned long long)info.events_queued);
        snprintf(text[2], 32, "%llu s", (unsigned long long)info.oldest_item_age_s);
        snprintf(text[3], 32, "%llu bytes", (unsigned long long)info.database_bytes);
        snprintf(text[4], 32, "%llu bytes", (unsigned long long)info.image_cache_bytes);
        snprintf(text[5], 32, "%llu", (unsigned long long)info.image_cache_files);
        snprintf(text[6], 32, "%s", info.has_identity ? "set" : "none");
        for (i = 0; i < 7; i++) values[i] = text[i];
        print_pairs(names, values, 7);
    }
    return 0;
}

/* ---- arguments ---------------------------------------------------------------------------------------- */

static int parse(int argc, char **argv, options *o, int *help) {
    int i;
    /* Every argument is UTF-8 of a sane length before any is used: a host's shell can pass any bytes. */
    for (i = 1; i < argc; i++) {
        const unsigned char *p = (const unsigned char *)argv[i];
        size_t length = strnlen(argv[i], MAX_ARGUMENT + 1);
        if (length > MAX_ARGUMENT) return usage_error(o, "argument %d is longer than %d bytes", i, MAX_ARGUMENT);
        while (*p) {
            size_t n = utf8_sequence(p);
            if (n == 0) return usage_error(o, "argument %d is not UTF-8", i);
            p += n;
        }
    }
    for (i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *next = i + 1 < argc ? argv[i + 1] : NULL;
#define TAKES(name, field)                                                                             \
    if (strcmp(a, name) == 0) {                                                                        \
        if (!next) return usage_error(o, "%s needs a value", name);                                    \
        o->field = next;                                                                               \
        i++;                                                                                           \
        continue;                                                                                      \
    }
        if (strcmp(a, "--help") == 0 || strcmp(a, "-h") == 0) { *help = 1; continue; }
        if (strcmp(a, "--json") == 0) { o->json = 1; continue; }
        if (strcmp(a, "--sandbox") == 0) { o->sandbox = 1; continue; }
        if (strcmp(a, "--verbose") == 0) { o->verbose = 1; continue; }
        if (strcmp(a, "--once") == 0) { o->once = 1; continue; }
        TAKES("--key", key)
        TAKES("--placement", placement)
        TAKES("--user", user)
        TAKES("--moments-url", moments_url)
        TAKES("--engage-url", engage_url)
        TAKES("--url", zone_template)
        TAKES("--storage", storage)
        TAKES("-o", output)
        TAKES("--output", output)
        TAKES("--har", har)
        TAKES("--open", open)
#undef TAKES
        if (strcmp(a, "--payload") == 0) {
            if (!next) return usage_error(o, "--payload needs NAME=VALUE");
            if (o->payload_count == MAX_PAYLOAD) return usage_error(o, "at most %d --payload", MAX_PAYLOAD);
            o->payload[o->payload_count++] = next;
            i++;
            continue;
        }
        if (strcmp(a, "--timeout-ms") == 0) {
            char *end = NULL;
            if (!next) return usage_error(o, "--timeout-ms needs a value");
            o->timeout_ms = strtol(next, &end, 10);
            if (!end || *end || o->timeout_ms <= 0 || o->timeout_ms > 3600000) return usage_error(o, "--timeout-ms takes 1..3600000");
            i++;
            continue;
        }
        if (a[0] == '-' && a[1] != 0) return usage_error(o, "unknown option %s", a);
        if (!o->command) {
            o->command = a;
            if (!usage_text(a)) {
                o->command = NULL;
                return usage_error(o, "unknown command %s", a);
            }
            continue;
        }
        if (o->positional_count == 2) return usage_error(o, "unexpected argument %s", a);
        o->positional[o->positional_count++] = a;
    }
    return 0;
}

int main(int argc, char **argv) {
    options o;
    int help = 0, status;
    char moments[600], zone[640];
    memset(&o, 0, sizeof o);
    if (argc == 2 && strcmp(argv[1], "--version") == 0) {
        printf("blinkengage %s\n", be_version());
        return 0;
    }
    if ((status = parse(argc, argv, &o, &help)) != 0) return status;
    if (help || !o.command) {
        fputs(usage_text(o.command), help ? stdout : stderr);
        return help ? 0 : EXIT_USAGE;
    }
    if (o.sandbox && strcmp(o.command, "stats") != 0 && strcmp(o.command, "inspect") != 0) {
        if (!start_sandbox()) return EXIT_NO;
        snprintf(moments, sizeof moments, "%s/native/v4", sandbox_base);
        if (!o.moments_url) o.moments_url = moments;
        if (!o.engage_url) o.engage_url = sandbox_base;
        snprintf(zone, sizeof zone, "%s/api/adAPI.php?AdID={zone}", sandbox_base);
        if (!o.zone_template) o.zone_template = zone;
        if (!o.key) o.key = "demo-key";
    }
    if (strcmp(o.command, "offers") == 0) status = run_offers(&o);
    else if (strcmp(o.command, "feed") == 0) status = run_feed(&o);
    else if (strcmp(o.command, "wall") == 0) status = run_wall(&o);
    else if (strcmp(o.command, "zone-ad") == 0) status = run_zone_ad(&o);
    else if (strcmp(o.command, "image") == 0) status = run_image(&o);
    else if (strcmp(o.command, "inspect") == 0) status = run_inspect(&o);
    else status = run_stats(&o);
    fflush(stdout);
    stop_sandbox();
    return status;
}
