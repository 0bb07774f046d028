/* offer_wall.c — the SDK's offer wall in a real window, with SDL2.
 *
 * Loads the offer feed of a user and opens the headless offer wall over it (be_sdk_offer_wall). The SDK owns the
 * wall's navigation and its events; this program only draws what the wall's level says (every group with its
 * offers, one group's offers, or one offer's details) and tells the SDK which offer cards are on screen, as a
 * scrolling UI would (be_offer_wall_report_visibility): the SDK then records did_appear, view_all and did_tap with
 * their positions. The SDK runs in dispatch mode: this loop runs its callbacks once per frame.
 *
 *   ./offer_wall ENGAGE_URL [--key KEY] [--user USER] [--keys KEYS] [--screenshot FILE.bmp] [--font FILE.ttf]
 *
 * Mouse: a card opens its offer, "View all" its group, the buttons of the details accept or decline, the arrow goes
 * back. Keys: V view all of the first group, O open the first offer shown, Y accept, N decline, B or Esc back, Q
 * quit. --keys plays those keys (v o y n b q) in order; --screenshot then saves the window as a BMP, prints the
 * layout ("layout level=N cards=K first=x,y,w,h header=...") and exits, which is how the tests check its pixels.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>
#include <SDL_ttf.h>

#include "blinkengage.h"

enum { WINDOW_W = 520, WINDOW_H = 640, HEADER_H = 52, PAD = 16, CARD_H = 64, GROUP_H = 36, MAX_CARDS = 64 };

typedef struct { int x, y, w, h; } box;

/* One offer card drawn this frame, with the wall's position of its offer. */
typedef struct {
    box where;
    size_t group, offer;
} card;

typedef struct {
    SDL_Renderer *renderer;
    TTF_Font *title, *bold, *body;
    be_sdk *sdk;
    be_offer_feed *feed; /* retained */
    be_offer_wall *wall;
    int loaded, failed;
    char error[512];
    card cards[MAX_CARDS];
    size_t card_count;
    box header, back, view_all, yes, no;
    size_t view_all_group;
} app;

static SDL_Color rgb(Uint8 r, Uint8 g, Uint8 b) {
    SDL_Color c;
    c.r = r;
    c.g = g;
    c.b = b;
    c.a = 255;
    return c;
}

static const SDL_Color BACKGROUND = {0xF2, 0xF4, 0xF7, 255}, HEADER = {0x1A, 0x73, 0xE8, 255}, CARD = {0xFF, 0xFF, 0xFF, 255},
                       INK = {0x20, 0x24, 0x2A, 255}, MUTED = {0x5F, 0x63, 0x68, 255}, NO = {0xE8, 0xEA, 0xED, 255};

static void fill(app *a, box b, SDL_Color c) {
    SDL_Rect r;
    r.x = b.x;
    r.y = b.y;
    r.w = b.w;
    r.h = b.h;
    SDL_SetRenderDrawColor(a->renderer, c.r, c.g, c.b, c.a);
    SDL_RenderFillRect(a->renderer, &r);
}

/* Draws `text` at (x, y) on one line, cut to `width` pixels; returns its height. */
static int draw_text(app *a, TTF_Font *font, const char *text, int x, int y, int width, SDL_Color c) {
    SDL_Surface *surface;
    SDL_Texture *texture;
    SDL_Rect from, to;
    if (!text || !*text || !(surface = TTF_RenderUTF8_Blended(font, text, c))) return 0;
    texture = SDL_CreateTextureFromSurface(a->renderer, surface);
    from.x = from.y = 0;
    from.w = surface->w < width ? surface->w : width;
    from.h = surface->h;
    to = from;
    to.x = x;
    to.y = y;
    SDL_RenderCopy(a->renderer, texture, &from, &to);
    SDL_DestroyTexture(texture);
    SDL_FreeSurface(surface);
    return from.h;
}

/* Draws `text` wrapped at `width` pixels; returns its height. */
static int draw_wrapped(app *a, TTF_Font *font, const char *text, int x, int y, int width, SDL_Color c) {
    SDL_Surface *surface;
    SDL_Texture *texture;
    SDL_Rect to;
    if (!text || !*text || !(surface = TTF_RenderUTF8_Blended_Wrapped(font, text, c, (Uint32)width))) return 0;
    texture = SDL_CreateTextureFromSurface(a->renderer, surface);
    to.x = x;
    to.y = y;
    to.w = surface->w;
    to.h = surface->h;
    SDL_RenderCopy(a->renderer, texture, NULL, &to);
    SDL_DestroyTexture(texture);
    SDL_FreeSurface(surface);
    return to.h;
}

static int inside(box b, int x, int y) { return x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h; }

static box make_box(int x, int y, int w, int h) {
    box b;
    b.x = x;
    b.y = y;
    b.w = w;
    b.h = h;
    return b;
}

/* ---- the SDK --------------------------------------------------------------------------------------------- */

static void on_feed(be_offer_feed *feed, const be_error *error, void *user_data) {
    app *a = user_data;
    a->loaded = 1;
    if (error) {
        a->failed = 1;
        snprintf(a->error, sizeof a->error, "%s %d: %s", error->domain, error->code, error->message);
    } else {
        a->feed = be_offer_feed_retain(feed);
    }
}

/* The share of `b` inside the window's content area below the header: what the SDK counts as visible. */
static double visible_fraction(box b) {
    int top = b.y > HEADER_H ? b.y : HEADER_H, bottom = b.y + b.h < WINDOW_H ? b.y + b.h : WINDOW_H;
    return bottom <= top ? 0.0 : (double)(bottom - top) / (double)b.h;
}

/* Tells the wall what is on screen now: every card drawn, with its visible share. */
static void report_visible(app *a) {
    size_t i;
    for (i = 0; i < a->card_count; i++) {
        be_offer_wall_report_visibility(a->wall, a->cards[i].group, a->cards[i].offer, visible_fraction(a->cards[i].where));
    }
}

/* ---- drawing ----------------------------------------------------------------------------------------------- */

static void draw_card(app *a, const be_offer *offer, size_t g, size_t k, int y) {
    box b = make_box(PAD, y, WINDOW_W - 2 * PAD, CARD_H - 8);
    fill(a, b, CARD);
    fill(a, make_box(b.x, b.y, 4, b.h), HEADER);
    draw_text(a, a->bold, be_offer_title(offer), b.x + 14, b.y + 9, b.w - 28, INK);
    draw_text(a, a->body, be_offer_cta_yes(offer), b.x + 14, b.y + 32, b.w - 28, MUTED);
    if (a->card_count < MAX_CARDS) {
        a->cards[a->card_count].where = b;
        a->cards[a->card_count].group = g;
        a->cards[a->card_count].offer = k;
        a->card_count++;
    }
}

/* The groups (all at the wall level, the one opened at the group level) and their offers as cards. */
static void draw_groups(app *a, const be_offer_group *only) {
    size_t g, k, groups = be_offer_feed_group_count(a->feed);
    int y = HEADER_H + PAD;
    a->view_all = make_box(0, 0, 0, 0);
    for (g = 0; g < groups; g++) {
        const be_offer_group *group = be_offer_feed_group_at(a->feed, g);
        if (only && group != only) continue;
        draw_text(a, a->bold, be_offer_group_title(group), PAD, y + 8, WINDOW_W - 140, INK);
        if (!only) {
            box button = make_box(WINDOW_W - PAD - 90, y + 4, 90, GROUP_H - 8);
            draw_text(a, a->body, "View all \xE2\x80\xBA", button.x + 8, button.y + 6, 90, HEADER);
            if (a->view_all.w == 0) { /* the key V opens the first group; a click on any button opens its own */
                a->view_all = button;
                a->view_all_group = g;
            }
        }
        y += GROUP_H;
        for (k = 0; k < be_offer_group_offer_count(group); k++, y += CARD_H) draw_card(a, be_offer_group_offer_at(group, k), g, k, y);
        y += PAD / 2;
    }
}

static void draw_details(app *a) {
    const be_offer *offer = be_offer_wall_current_offer(a->wall);
    box card_box = make_box(PAD, HEADER_H + PAD, WINDOW_W - 2 * PAD, 300);
    int y = card_box.y + 16;
    fill(a, card_box, CARD);
    y += draw_text(a, a->title, be_offer_title(offer), card_box.x + 16, y, card_box.w - 32, INK) + 12;
    draw_wrapped(a, a->body, be_offer_description(offer), card_box.x + 16, y, card_box.w - 32, MUTED);
    a->yes = make_box(card_box.x + 16, card_box.y + card_box.h - 108, card_box.w - 32, 40);
    a->no = make_box(card_box.x + 16, card_box.y + card_box.h - 58, card_box.w - 32, 40);
    fill(a, a->yes, HEADER);
    fill(a, a->no, NO);
    draw_text(a, a->bold, be_offer_cta_yes(offer), a->yes.x + 14, a->yes.y + 11, a->yes.w - 28, rgb(0xFF, 0xFF, 0xFF));
    draw_text(a, a->bold, be_offer_cta_no(offer), a->no.x + 14, a->no.y + 11, a->no.w - 28, INK);
}

static void draw_frame(app *a) {
    be_offer_wall_level level = a->wall ? be_offer_wall_get_level(a->wall) : BE_OFFER_WALL_LEVEL_CLOSED;
    const be_offer_group *group = a->wall ? be_offer_wall_current_group(a->wall) : NULL;
    fill(a, make_box(0, 0, WINDOW_W, WINDOW_H), BACKGROUND);
    a->card_count = 0;
    a->header = make_box(0, 0, WINDOW_W, HEADER_H);
    a->back = make_box(0, 0, HEADER_H, HEADER_H);
    a->yes = a->no = make_box(0, 0, 0, 0);
    if (level == BE_OFFER_WALL_LEVEL_WALL) draw_groups(a, NULL);
    else if (level == BE_OFFER_WALL_LEVEL_GROUP) draw_groups(a, group);
    else if (level == BE_OFFER_WALL_LEVEL_OFFER) draw_details(a);
    fill(a, a->header, HEADER);
    draw_text(a, a->title, level == BE_OFFER_WALL_LEVEL_WALL ? "Offers" : "\xE2\x80\xB9", PAD, 14, WINDOW_W - 2 * PAD,
              rgb(0xFF, 0xFF, 0xFF));
    if (level == BE_OFFER_WALL_LEVEL_GROUP || level == BE_OFFER_WALL_LEVEL_OFFER) {
        draw_text(a, a->title, be_offer_group_title(group), HEADER_H, 14, WINDOW_W - HEADER_H - PAD, rgb(0xFF, 0xFF, 0xFF));
    }
    if (a->failed || (!a->wall && a->loaded)) draw_text(a, a->body, a->error, PAD, HEADER_H + PAD, WINDOW_W - 2 * PAD, INK);
    SDL_RenderPresent(a->renderer);
    if (a->wall && level != BE_OFFER_WALL_LEVEL_CLOSED) report_visible(a);
}

/* ---- input ----------------------------------------------------------------------------------------------- */

/* Applies one key; returns 0 to quit. */
static int apply_key(app *a, char key) {
    const char *url;
    switch (key) {
    case 'v': be_offer_wall_open_group(a->wall, a->view_all_group); break;
    case 'o':
        if (a->card_count > 0) be_offer_wall_open_offer(a->wall, a->cards[0].group, a->cards[0].offer);
        break;
    case 'y':
        if ((url = be_offer_wall_accept(a->wall)) != NULL) printf("open %s\n", url);
        break;
    case 'n': be_offer_wall_decline(a->wall); break;
    case 'b': be_offer_wall_back(a->wall); break;
    case 'q': return 0;
    default: break;
    }
    return be_offer_wall_get_level(a->wall) != BE_OFFER_WALL_LEVEL_CLOSED;
}

static void click(app *a, int x, int y) {
    size_t i;
    if (inside(a->back, x, y) && be_offer_wall_get_level(a->wall) != BE_OFFER_WALL_LEVEL_WALL) apply_key(a, 'b');
    else if (inside(a->view_all, x, y)) apply_key(a, 'v');
    else if (inside(a->yes, x, y)) apply_key(a, 'y');
    else if (inside(a->no, x, y)) apply_key(a, 'n');
    else {
        for (i = 0; i < a->card_count; i++) {
            if (inside(a->cards[i].where, x, y)) be_offer_wall_open_offer(a->wall, a->cards[i].group, a->cards[i].offer);
        }
    }
}

static int save_screenshot(app *a, const char *path) {
    SDL_Surface *surface = SDL_CreateRGBSurfaceWithFormat(0, WINDOW_W, WINDOW_H, 24, SDL_PIXELFORMAT_BGR24);
    int ok = surface && SDL_RenderReadPixels(a->renderer, NULL, SDL_PIXELFORMAT_BGR24, surface->pixels, surface->pitch) == 0 &&
             SDL_SaveBMP(surface, path) == 0;
    if (!ok) fprintf(stderr, "offer_wall: cannot save %s: %s\n", path, SDL_GetError());
    SDL_FreeSurface(surface);
    printf("layout level=%d cards=%zu first=%d,%d,%d,%d header=%d,%d,%d,%d yes=%d,%d,%d,%d\n",
           (int)be_offer_wall_get_level(a->wall), a->card_count, a->card_count ? a->cards[0].where.x : 0,
           a->card_count ? a->cards[0].where.y : 0, a->card_count ? a->cards[0].where.w : 0,
           a->card_count ? a->cards[0].where.h : 0, a->header.x, a->header.y, a->header.w, a->header.h, a->yes.x, a->yes.y,
           a->yes.w, a->yes.h);
    return ok;
}

static const char *default_font(int bold) {
    static const char *regular[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf"};
    static const char *heavy[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf"};
    const char **list = bold ? heavy : regular;
    FILE *file = fopen(list[0], "rb");
    if (file) fclose(file);
    return file ? list[0] : list[1];
}

int main(int argc, char **argv) {
    const char *engage_url = NULL, *key = "demo-key", *user = "demo-user", *keys = NULL, *screenshot = NULL, *font = NULL;
    be_config *config;
    SDL_Window *window;
    app a;
    int i, running = 1, status = 0;
    size_t next_key = 0;
    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--key") == 0 && i + 1 < argc) key = argv[++i];
        else if (strcmp(argv[i], "--user") == 0 && i + 1 < argc) user = argv[++i];
        else if (strcmp(argv[i], "--keys") == 0 && i + 1 < argc) keys = argv[++i];
        else if (strcmp(argv[i], "--screenshot") == 0 && i + 1 < argc) screenshot = argv[++i];
        else if (strcmp(argv[i], "--font") == 0 && i + 1 < argc) font = argv[++i];
        else if (argv[i][0] != '-' && !engage_url) engage_url = argv[i];
        else {
            engage_url = NULL;
            break;
        }
    }
    if (!engage_url) {
        fprintf(stderr, "usage: %s ENGAGE_URL [--key KEY] [--user USER] [--keys KEYS] [--screenshot FILE.bmp] [--font FILE.ttf]\n", argv[0]);
        return 2;
    }
    memset(&a, 0, sizeof a);
    if (screenshot) SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software"); /* the same pixels on every machine */
    if (SDL_Init(SDL_INIT_VIDEO) != 0 || TTF_Init() != 0) {
        fprintf(stderr, "offer_wall: cannot start SDL: %s\n", SDL_GetError());
        return 1;
    }
    window = SDL_CreateWindow("BlinkEngage offer wall", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, WINDOW_W, WINDOW_H, 0);
    a.renderer = window ? SDL_CreateRenderer(window, -1, screenshot ? SDL_RENDERER_SOFTWARE : SDL_RENDERER_PRESENTVSYNC) : NULL;
    a.title = TTF_OpenFont(font ? font : default_font(1), 18);
    a.bold = TTF_OpenFont(font ? font : default_font(1), 15);
    a.body = TTF_OpenFont(font ? font : default_font(0), 13);
    if (!a.renderer || !a.title || !a.bold || !a.body) {
        fprintf(stderr, "offer_wall: cannot open a window or its fonts: %s\n", SDL_GetError());
        return 1;
    }
    config = be_config_new(key);
    if (be_config_set_engage_url(config, engage_url) != BE_OK ||
        be_config_set_callback_mode(config, BE_CALLBACKS_ON_DISPATCH) != BE_OK || be_sdk_start(config, &a.sdk) != BE_OK ||
        be_sdk_set_user_identity(a.sdk, user) != BE_OK || be_sdk_load_offer_feed(a.sdk, on_feed, &a) != BE_OK) {
        fprintf(stderr, "offer_wall: cannot start the SDK: %s\n", be_last_error_message());
        return 1;
    }
    while (running) {
        SDL_Event event;
        be_sdk_dispatch(a.sdk, 0); /* the SDK's callbacks run here, on this thread, once per frame */
        if (a.feed && !a.wall && !(a.wall = be_sdk_offer_wall(a.sdk))) {
            snprintf(a.error, sizeof a.error, "no wall: %s", be_last_error_message());
            a.failed = 1;
        }
        if (a.failed && screenshot) {
            draw_frame(&a);
            status = 1;
            break;
        }
        while (SDL_PollEvent(&event)) {
            if (event.type == SDL_QUIT) running = 0;
            else if (event.type == SDL_KEYDOWN && a.wall && !keys) {
                switch (event.key.keysym.sym) {
                case SDLK_v: running = apply_key(&a, 'v'); break;
                case SDLK_o: running = apply_key(&a, 'o'); break;
                case SDLK_y: case SDLK_RETURN: running = apply_key(&a, 'y'); break;
                case SDLK_n: running = apply_key(&a, 'n'); break;
                case SDLK_b: case SDLK_ESCAPE: running = apply_key(&a, 'b'); break;
                case SDLK_q: running = 0; break;
                default: break;
                }
            } else if (event.type == SDL_MOUSEBUTTONDOWN && a.wall && !keys) {
                click(&a, event.button.x, event.button.y);
            }
        }
        draw_frame(&a);
        if (a.wall && keys) {
            if (keys[next_key]) {
                running = apply_key(&a, keys[next_key++]);
                continue;
            }
            if (screenshot) {
                draw_frame(&a);
                status = save_screenshot(&a, screenshot) ? 0 : 1;
                break;
            }
        }
        if (!screenshot) SDL_Delay(16); /* a frame's pace when the renderer does not wait for vsync */
    }
    if (a.wall) be_offer_wall_close(a.wall);
    be_sdk_flush(a.sdk, 5000); /* the wall's events go out before the window closes */
    be_offer_wall_free(a.wall);
    be_offer_feed_release(a.feed);
    be_sdk_shutdown(a.sdk, 2000);
    be_config_free(config);
    TTF_CloseFont(a.title);
    TTF_CloseFont(a.bold);
    TTF_CloseFont(a.body);
    SDL_DestroyRenderer(a.renderer);
    SDL_DestroyWindow(window);
    TTF_Quit();
    SDL_Quit();
    return status;
}
