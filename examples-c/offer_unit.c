/* offer_unit.c — the single-offer unit as a person sees it, in a terminal.
 *
 * Fetches Moments offers, opens an SDK screen over them and draws the current offer as a card in the
 * response's colours (24-bit ANSI colour when the terminal allows, plain text otherwise). Keys: n next,
 * p previous, a accept, d decline, c close, q quit. After each key it shows which beacons the SDK fired.
 *
 *   ./offer_unit MOMENTS_URL [--keys KEYS] [--color | --plain]
 *
 * With --keys the keys come from the argument instead of the keyboard (how the tests drive it).
 */
#define _POSIX_C_SOURCE 200809L
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <unistd.h>

#include "blinkengage.h"

enum { CARD_WIDTH = 58 };

static int use_color;

typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
    int done;
    be_moments_response *response; /* retained */
    char error[512];
} fetch_state;

static void on_offers(be_moments_response *response, const be_error *error, void *user_data) {
    fetch_state *state = user_data;
    pthread_mutex_lock(&state->lock);
    if (error) snprintf(state->error, sizeof state->error, "%s %d: %s", error->domain, error->code, error->message);
    else state->response = be_moments_response_retain(response);
    state->done = 1;
    pthread_cond_signal(&state->changed);
    pthread_mutex_unlock(&state->lock);
}

/* "#1A73E8" to its components; 0 when it is not such a colour. */
static int parse_color(const char *text, int rgb[3]) {
    unsigned value;
    if (!text || text[0] != '#' || strlen(text) != 7 || sscanf(text + 1, "%6x", &value) != 1) return 0;
    rgb[0] = (int)(value >> 16) & 0xFF;
    rgb[1] = (int)(value >> 8) & 0xFF;
    rgb[2] = (int)value & 0xFF;
    return 1;
}

/* Starts a span coloured by two style paths (foreground, background); ends it with end_color(). */
static void begin_color(const be_offer_screen *screen, const char *foreground, const char *background) {
    int rgb[3];
    if (!use_color) return;
    if (parse_color(be_offer_screen_style(screen, foreground), rgb)) printf("\033[38;2;%d;%d;%dm", rgb[0], rgb[1], rgb[2]);
    if (parse_color(be_offer_screen_style(screen, background), rgb)) printf("\033[48;2;%d;%d;%dm", rgb[0], rgb[1], rgb[2]);
}

static void end_color(void) {
    if (use_color) printf("\033[0m");
}

/* Characters, not bytes, so UTF-8 titles pad right. */
static int display_width(const char *text) {
    int width = 0;
    for (; *text; text++) width += ((unsigned char)*text & 0xC0) != 0x80;
    return width;
}

/* One card line: the text left-aligned and padded to the card's width, wrapped at word boundaries. */
static void card_text(const be_offer_screen *screen, const char *text, const char *fg, const char *bg) {
    const char *rest = text ? text : "";
    do {
        int take = 0, last_space = -1, width = 0, i;
        for (i = 0; rest[i] && width < CARD_WIDTH - 4; i++) {
            if (rest[i] == ' ') last_space = i;
            width += ((unsigned char)rest[i] & 0xC0) != 0x80;
            take = i + 1;
        }
        if (rest[take] && last_space > 0) take = last_space;
        printf("|");
        begin_color(screen, fg, bg);
        printf(" %.*s", take, rest);
        {
            char piece[256];
            snprintf(piece, sizeof piece, "%.*s", take, rest);
            printf("%*s", CARD_WIDTH - 3 - display_width(piece), "");
        }
        end_color();
        printf("|\n");
        rest += take;
        while (*rest == ' ') rest++;
    } while (*rest);
}

static void draw(const be_offer_screen *screen) {
    const be_offer *offer = be_offer_screen_current_offer(screen);
    char position[64];
    int i;
    printf("+");
    for (i = 0; i < CARD_WIDTH - 2; i++) printf("-");
    printf("+\n");
    if (!offer) {
        card_text(screen, "(the unit is closed)", "offerText.textColor", "popup.background");
    } else {
        snprintf(position, sizeof position, "offer %zu of %zu", be_offer_screen_index(screen) + 1,
                 be_offer_screen_offer_count(screen));
        card_text(screen, be_offer_screen_style(screen, "header.text"), "header.textColor", "header.background");
        card_text(screen, position, "offerText.textColor", "popup.background");
        card_text(screen, be_offer_title(offer), "offerText.textColor", "popup.background");
        card_text(screen, be_offer_description(offer), "offerText.textColor", "popup.background");
        card_text(screen, be_offer_image_url(offer) ? be_offer_image_url(offer) : "(no image)", "offerText.textColor",
                  "popup.background");
        printf("|  ");
        begin_color(screen, "offerText.buttonYes.color", "offerText.buttonYes.background");
        printf(" [a] %s ", be_offer_cta_yes(offer) ? be_offer_cta_yes(offer) : "Yes");
        end_color();
        printf("  ");
        begin_color(screen, "offerText.buttonNo.color", "offerText.buttonNo.background");
        printf(" [d] %s ", be_offer_cta_no(offer) ? be_offer_cta_no(offer) : "No");
        end_color();
        printf("%*s|\n", CARD_WIDTH - 18 - display_width(be_offer_cta_yes(offer) ? be_offer_cta_yes(offer) : "Yes") -
                              display_width(be_offer_cta_no(offer) ? be_offer_cta_no(offer) : "No"), "");
    }
    printf("+");
    for (i = 0; i < CARD_WIDTH - 2; i++) printf("-");
    printf("+\n");
}

static be_stats stats_of(be_sdk *sdk) {
    be_stats stats;
    memset(&stats, 0, sizeof stats);
    stats.struct_size = sizeof stats;
    be_sdk_get_stats(sdk, &stats);
    return stats;
}

/* How many beacons the SDK has queued so far (the SDK's own count, not this program's guess). */
static unsigned long long beacons_queued(be_sdk *sdk) { return (unsigned long long)stats_of(sdk).beacons_queued; }

/* The beacons the SDK counted since `before`, named by what the screen rules fire for the move. */
static void report_beacons(be_sdk *sdk, unsigned long long before, const char *what) {
    unsigned long long fired = beacons_queued(sdk) - before;
    printf("beacons: %llu fired (%s)\n", fired, what);
}

static int read_key(const char **script) {
    if (*script) return **script ? *(*script)++ : 'q';
    return getchar();
}

int main(int argc, char **argv) {
    fetch_state state = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, NULL, ""};
    const char *script = NULL;
    const char *colorterm = getenv("COLORTERM");
    struct termios saved, raw;
    int interactive, i, key, code = 0, prefetch = 0;
    be_config *config;
    be_sdk *sdk = NULL;
    be_moments_request *request;
    be_offer_screen *screen;
    char storage[] = "/tmp/blinkengage-unit-XXXXXX";

    if (argc < 2) {
        fprintf(stderr, "usage: %s MOMENTS_URL [--keys KEYS] [--color | --plain] [--prefetch]\n", argv[0]);
        return 2;
    }
    use_color = isatty(STDOUT_FILENO) && colorterm && (strcmp(colorterm, "truecolor") == 0 || strcmp(colorterm, "24bit") == 0);
    for (i = 2; i < argc; i++) {
        if (strcmp(argv[i], "--keys") == 0 && i + 1 < argc) script = argv[++i];
        else if (strcmp(argv[i], "--color") == 0) use_color = 1;
        else if (strcmp(argv[i], "--plain") == 0) use_color = 0;
        else if (strcmp(argv[i], "--prefetch") == 0) prefetch = 1;
    }
    interactive = !script && isatty(STDIN_FILENO);

    config = be_config_new("demo-key");
    if (!config || be_config_set_moments_url(config, argv[1]) != BE_OK || !mkdtemp(storage) ||
        be_config_set_storage_dir(config, storage) != BE_OK || be_sdk_start(config, &sdk) != BE_OK) {
        fprintf(stderr, "cannot start: %s\n", be_last_error_message());
        be_config_free(config);
        return 1;
    }
    be_config_free(config);
    request = be_moments_request_new();
    be_moments_request_set_payload(request, "placement", "checkout");
    /* An app prefetches ahead of the moment; the fetch below is then answered from that, with no request. */
    if (prefetch && be_sdk_prefetch_moments_offers(sdk, request) != BE_OK) {
        fprintf(stderr, "prefetch refused: %s\n", be_last_error_message());
    }
    if (be_sdk_fetch_moments_offers(sdk, request, on_offers, &state) != BE_OK) {
        fprintf(stderr, "fetch refused: %s\n", be_last_error_message());
        be_moments_request_free(request);
        be_sdk_shutdown(sdk, 1000);
        return 1;
    }
    be_moments_request_free(request);
    pthread_mutex_lock(&state.lock);
    while (!state.done) pthread_cond_wait(&state.changed, &state.lock);
    pthread_mutex_unlock(&state.lock);
    if (!state.response) {
        fprintf(stderr, "no offers: %s\n", state.error);
        be_sdk_shutdown(sdk, 1000);
        return 1;
    }

    {
        unsigned long long before = beacons_queued(sdk);
        screen = be_sdk_moments_screen(sdk, state.response);
        be_moments_response_release(state.response); /* the screen keeps it */
        if (stats_of(sdk).prefetch_hits > 0) printf("[cached] drawn from the prefetched answer\n");
        draw(screen);
        report_beacons(sdk, before, "impression");
    }
    if (interactive) {
        tcgetattr(STDIN_FILENO, &saved);
        raw = saved;
        raw.c_lflag &= ~(tcflag_t)(ICANON | ECHO);
        tcsetattr(STDIN_FILENO, TCSANOW, &raw);
        printf("keys: n next, p previous, a accept, d decline, c close, q quit\n");
    }
    while (!be_offer_screen_is_finished(screen) && (key = read_key(&script)) != EOF && key != 'q') {
        unsigned long long before = beacons_queued(sdk);
        const char *what = "";
        be_status status = BE_OK;
        const char *url;
        printf("\n> %c\n", key);
        switch (key) {
        case 'n': status = be_offer_screen_show_next(screen); what = "impression"; break;
        case 'p': status = be_offer_screen_show_previous(screen); what = "impression"; break;
        case 'd':
            status = be_offer_screen_decline(screen);
            what = be_offer_screen_is_finished(screen) ? "no_thanks_click, close" : "no_thanks_click, impression";
            break;
        case 'a':
            url = be_offer_screen_accept(screen);
            if (url) printf("open: %s\n", url);
            else if (strstr(be_last_error_message(), "finished")) status = BE_ERR_INVALID_STATE;
            what = be_offer_screen_is_finished(screen) ? "close" : "impression";
            break;
        case 'c': status = be_offer_screen_close(screen); what = "close"; break;
        default: printf("keys: n next, p previous, a accept, d decline, c close, q quit\n"); continue;
        }
        if (status != BE_OK) {
            printf("not possible: %s\n", be_last_error_message());
            continue;
        }
        draw(screen);
        report_beacons(sdk, before, what);
    }
    if (interactive) tcsetattr(STDIN_FILENO, TCSANOW, &saved);
    be_offer_screen_free(screen);
    if (be_sdk_flush(sdk, 10000) == BE_OK) {
        printf("tracking: %llu beacons delivered\n", (unsigned long long)stats_of(sdk).beacons_delivered);
    } else {
        printf("tracking: kept for later (%s)\n", be_last_error_message());
        code = 1;
    }
    be_sdk_shutdown(sdk, 2000);
    return code;
}
