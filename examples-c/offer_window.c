/* offer_window.c — the single-offer unit in a real window, with SDL2.
 *
 * Fetches Moments offers, opens an SDK screen over them and draws the current offer as a card in the answer's
 * style colours: the header, the creative (fetched through be_sdk_fetch_image and decoded by SDL2_image), the
 * title and description, the yes/no buttons and a position indicator, with the SDK's count of fired beacons
 * below the card. The SDK runs in dispatch mode: this game-style loop runs its callbacks once per frame.
 *
 *   ./offer_window MOMENTS_URL [--key KEY] [--keys KEYS] [--screenshot FILE.bmp] [--font FILE.ttf]
 *
 * Mouse: the buttons and the close cross. Keys: Right / Left browse, Y or Enter accept, N decline, Esc close,
 * Q quit. Accepting prints the click URL the host would open.
 *
 * --keys plays keys instead (r right, l left, y accept, n decline, c close, q quit), each once the creative
 * on screen has loaded; --screenshot then saves the window as a BMP, prints the layout ("layout card=x,y,w,h
 * ...") and exits, which is how the tests check its pixels under Xvfb.
 */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <SDL.h>
#include <SDL_image.h>
#include <SDL_ttf.h>

#include "blinkengage.h"

enum { WINDOW_W = 520, WINDOW_H = 560, HEADER_H = 52, PAD = 20, IMAGE_SIDE = 128, BUTTON_H = 44, MAX_OFFERS = 64 };

typedef struct { int x, y, w, h; } box;

typedef struct {
    int requested, done;
    SDL_Texture *texture;
} creative_slot;

typedef struct {
    SDL_Renderer *renderer;
    TTF_Font *title, *body, *bold, *small;
    be_sdk *sdk;
    be_moments_response *response; /* retained */
    char error[512];
    int fetched;
    be_offer_screen *screen;
    creative_slot slots[MAX_OFFERS];
    char last_action[512];
    box card, header, image, yes, no, close_box;
} app;

typedef struct {
    app *app;
    size_t index;
} image_request;

/* ---- colours and shapes ------------------------------------------------------------------------------- */

/* A style colour ("#1A73E8") of the screen, or `fallback` when absent or not such a colour. */
static SDL_Color style_color(const app *a, const char *path, SDL_Color fallback) {
    const char *text = a->screen ? be_offer_screen_style(a->screen, path) : NULL;
    unsigned value;
    SDL_Color color = fallback;
    if (text && text[0] == '#' && strlen(text) == 7 && sscanf(text + 1, "%6x", &value) == 1) {
        color.r = (Uint8)(value >> 16);
        color.g = (Uint8)(value >> 8);
        color.b = (Uint8)value;
        color.a = 255;
    }
    return color;
}

static SDL_Color rgb(Uint8 r, Uint8 g, Uint8 b) {
    SDL_Color c;
    c.r = r;
    c.g = g;
    c.b = b;
    c.a = 255;
    return c;
}

static void set_color(SDL_Renderer *renderer, SDL_Color c) { SDL_SetRenderDrawColor(renderer, c.r, c.g, c.b, c.a); }

/* Fills `b` with corners of `radius`; `top_only` keeps the bottom corners square. */
static void fill_rounded(SDL_Renderer *renderer, box b, int radius, int top_only, SDL_Color c) {
    int row;
    set_color(renderer, c);
    for (row = 0; row < b.h; row++) {
        int inset = 0;
        double dy = -1;
        if (row < radius) dy = radius - row - 0.5;
        else if (!top_only && row >= b.h - radius) dy = row - (b.h - radius) + 0.5;
        if (dy >= 0) inset = (int)(radius - sqrt((double)radius * radius - dy * dy) + 0.5);
        SDL_RenderDrawLine(renderer, b.x + inset, b.y + row, b.x + b.w - 1 - inset, b.y + row);
    }
}

/* A rounded box with a one-pixel border of `stroke`. */
static void fill_outlined(SDL_Renderer *renderer, box b, int radius, SDL_Color fill, SDL_Color stroke) {
    box inner;
    fill_rounded(renderer, b, radius, 0, stroke);
    inner.x = b.x + 1;
    inner.y = b.y + 1;
    inner.w = b.w - 2;
    inner.h = b.h - 2;
    fill_rounded(renderer, inner, radius - 1, 0, fill);
}

/* Draws `text` at (x, y), wrapped at `width` (0: one line); returns the height drawn. */
static int draw_text(app *a, TTF_Font *font, const char *text, int x, int y, int width, SDL_Color c) {
    SDL_Surface *surface;
    SDL_Texture *texture;
    SDL_Rect where;
    int height;
    if (!text || !*text) return 0;
    surface = width > 0 ? TTF_RenderUTF8_Blended_Wrapped(font, text, c, (Uint32)width) : TTF_RenderUTF8_Blended(font, text, c);
    if (!surface) return 0;
    texture = SDL_CreateTextureFromSurface(a->renderer, surface);
    where.x = x;
    where.y = y;
    where.w = surface->w;
    where.h = surface->h;
    height = surface->h;
    SDL_RenderCopy(a->renderer, texture, NULL, &where);
    SDL_DestroyTexture(texture);
    SDL_FreeSurface(surface);
    return height;
}

/* Draws `text` centred in `b`. */
static void draw_centered(app *a, TTF_Font *font, const char *text, box b, SDL_Color c) {
    int w = 0, h = 0;
    if (!text || TTF_SizeUTF8(font, text, &w, &h) != 0) return;
    draw_text(a, font, text, b.x + (b.w - w) / 2, b.y + (b.h - h) / 2, 0, c);
}

static int inside(box b, int x, int y) { return x >= b.x && x < b.x + b.w && y >= b.y && y < b.y + b.h; }

/* ---- the SDK's callbacks (dispatch mode: they run in be_sdk_dispatch, on this loop's thread) ------------ */

static void on_offers(be_moments_response *response, const be_error *error, void *user_data) {
    app *a = user_data;
    if (error) snprintf(a->error, sizeof a->error, "%s %d: %s", error->domain, error->code, error->message);
    else a->response = be_moments_response_retain(response);
    a->fetched = 1;
}

static void on_image(be_image *image, const be_error *error, void *user_data) {
    image_request *request = user_data;
    creative_slot *slot = &request->app->slots[request->index];
    if (image) {
        SDL_RWops *bytes = SDL_RWFromConstMem(be_image_data(image), (int)be_image_size(image));
        SDL_Surface *surface = bytes ? IMG_Load_RW(bytes, 1) : NULL;
        if (surface) {
            slot->texture = SDL_CreateTextureFromSurface(request->app->renderer, surface);
            SDL_FreeSurface(surface);
        } else {
            fprintf(stderr, "offer_window: cannot decode the creative: %s\n", IMG_GetError());
        }
    } else {
        fprintf(stderr, "offer_window: creative not loaded: %s %d: %s\n", error->domain, error->code, error->message);
    }
    slot->done = 1;
    free(request);
}

/* Asks for the current offer's creative once; a slot without an image URL is done at once. */
static void request_creative(app *a) {
    const be_offer *offer = be_offer_screen_current_offer(a->screen);
    size_t index = be_offer_screen_index(a->screen);
    creative_slot *slot;
    image_request *request;
    if (!offer || index >= MAX_OFFERS) return;
    slot = &a->slots[index];
    if (slot->requested) return;
    slot->requested = 1;
    request = malloc(sizeof *request);
    if (!request || !be_offer_image_url(offer)) {
        free(request);
        slot->done = 1;
        return;
    }
    request->app = a;
    request->index = index;
    if (be_sdk_fetch_image(a->sdk, be_offer_image_url(offer), on_image, request) != BE_OK) {
        free(request);
        slot->done = 1;
    }
}

static int creative_settled(const app *a) {
    size_t index = be_offer_screen_index(a->screen);
    return be_offer_screen_is_finished(a->screen) || index >= MAX_OFFERS || a->slots[index].done;
}

/* ---- actions ------------------------------------------------------------------------------------------- */

static void accept(app *a) {
    const char *url = be_offer_screen_accept(a->screen);
    if (url) {
        printf("open %s\n", url);
        snprintf(a->last_action, sizeof a->last_action, "Accepted: the host opens the offer's link");
    } else {
        snprintf(a->last_action, sizeof a->last_action, "Accepted");
    }
}

static void decline(app *a) {
    be_offer_screen_decline(a->screen);
    snprintf(a->last_action, sizeof a->last_action, "Declined");
}

static void close_unit(app *a) {
    be_offer_screen_close(a->screen);
    snprintf(a->last_action, sizeof a->last_action, "Closed");
}

/* Applies one key; returns 0 to quit. */
static int apply_key(app *a, char key) {
    if (key == 'q') return 0;
    if (be_offer_screen_is_finished(a->screen)) return 1;
    switch (key) {
    case 'r': if (be_offer_screen_has_next(a->screen)) be_offer_screen_show_next(a->screen); break;
    case 'l': if (be_offer_screen_has_previous(a->screen)) be_offer_screen_show_previous(a->screen); break;
    case 'y': accept(a); break;
    case 'n': decline(a); break;
    case 'c': close_unit(a); break;
    default: break;
    }
    return 1;
}

/* ---- drawing ------------------------------------------------------------------------------------------- */

static void layout(app *a) {
    int half;
    a->card.x = 40;
    a->card.y = 32;
    a->card.w = WINDOW_W - 80;
    a->card.h = 440;
    a->header.x = a->card.x;
    a->header.y = a->card.y;
    a->header.w = a->card.w;
    a->header.h = HEADER_H;
    a->image.x = a->card.x + PAD;
    a->image.y = a->card.y + HEADER_H + PAD;
    a->image.w = IMAGE_SIDE;
    a->image.h = IMAGE_SIDE;
    half = (a->card.w - 2 * PAD - 12) / 2;
    a->yes.x = a->card.x + PAD;
    a->yes.y = a->card.y + a->card.h - PAD - 24 - BUTTON_H;
    a->yes.w = half;
    a->yes.h = BUTTON_H;
    a->no = a->yes;
    a->no.x = a->yes.x + half + 12;
    a->close_box.x = a->card.x + a->card.w - 44;
    a->close_box.y = a->card.y + 8;
    a->close_box.w = 36;
    a->close_box.h = 36;
}

static void draw_image(app *a) {
    creative_slot *slot = &a->slots[be_offer_screen_index(a->screen) % MAX_OFFERS];
    fill_rounded(a->renderer, a->image, 6, 0, rgb(0xEE, 0xF1, 0xF5));
    if (slot->texture) {
        int w = 0, h = 0;
        SDL_Rect where;
        double scale;
        SDL_QueryTexture(slot->texture, NULL, NULL, &w, &h);
        scale = w > 0 && h > 0 ? fmin((double)a->image.w / w, (double)a->image.h / h) : 1.0;
        where.w = (int)(w * scale);
        where.h = (int)(h * scale);
        where.x = a->image.x + (a->image.w - where.w) / 2;
        where.y = a->image.y + (a->image.h - where.h) / 2;
        SDL_RenderCopy(a->renderer, slot->texture, NULL, &where);
    } else {
        draw_centered(a, a->small, slot->done ? "no image" : "loading\xe2\x80\xa6", a->image, rgb(0x8A, 0x94, 0xA6));
    }
}

static void draw_frame(app *a) {
    SDL_Color backdrop = rgb(0x27, 0x2D, 0x3A), text, white = rgb(0xFF, 0xFF, 0xFF);
    SDL_Color card_bg, header_bg, header_text;
    const be_offer *offer;
    char line[256];
    be_stats stats;
    int y, i, n, dot_x;
    box shadow;

    set_color(a->renderer, backdrop);
    SDL_RenderClear(a->renderer);
    card_bg = style_color(a, "popup.background", white);
    header_bg = style_color(a, "header.background", rgb(0x0B, 0x19, 0x37));
    header_text = style_color(a, "header.textColor", white);
    text = style_color(a, "offerText.textColor", rgb(0x1F, 0x29, 0x33));

    /* a soft shadow ("shadow": "medium"), then the card and its header */
    SDL_SetRenderDrawBlendMode(a->renderer, SDL_BLENDMODE_BLEND);
    for (i = 6; i >= 1; i--) {
        shadow = a->card;
        shadow.x -= i;
        shadow.y -= i - 4;
        shadow.w += 2 * i;
        shadow.h += 2 * i;
        fill_rounded(a->renderer, shadow, 8 + i, 0, (SDL_Color){0, 0, 0, (Uint8)(14 - 2 * i + 4)});
    }
    SDL_SetRenderDrawBlendMode(a->renderer, SDL_BLENDMODE_NONE);
    fill_rounded(a->renderer, a->card, 8, 0, card_bg);
    fill_rounded(a->renderer, a->header, 8, 1, header_bg);
    draw_text(a, a->bold, a->screen && be_offer_screen_style(a->screen, "header.text") ? be_offer_screen_style(a->screen, "header.text")
                                                                                      : "Offers",
              a->header.x + PAD, a->header.y + (HEADER_H - TTF_FontHeight(a->bold)) / 2, 0, header_text);
    draw_centered(a, a->title, "\xc3\x97", a->close_box, header_text);

    offer = a->screen ? be_offer_screen_current_offer(a->screen) : NULL;
    if (!a->screen) {
        box message = a->card;
        message.y += HEADER_H;
        message.h -= HEADER_H;
        draw_centered(a, a->body, a->error[0] ? a->error : "Loading offers\xe2\x80\xa6", message, text);
    } else if (!offer) {
        box message = a->card;
        message.y += HEADER_H;
        message.h -= HEADER_H;
        draw_centered(a, a->title, "You're all set", message, text);
    } else {
        SDL_Color yes_bg = style_color(a, "offerText.buttonYes.background", rgb(0x1A, 0x73, 0xE8));
        SDL_Color yes_stroke = style_color(a, "offerText.buttonYes.stroke", yes_bg);
        SDL_Color yes_text = style_color(a, "offerText.buttonYes.color", white);
        SDL_Color no_bg = style_color(a, "offerText.buttonNo.background", white);
        SDL_Color no_stroke = style_color(a, "offerText.buttonNo.stroke", rgb(0xCC, 0xCC, 0xCC));
        SDL_Color no_text = style_color(a, "offerText.buttonNo.color", yes_bg);
        int text_x = a->image.x + a->image.w + 16, text_w = a->card.x + a->card.w - PAD - text_x;
        const char *advertiser = be_offer_field(offer, "advertiser_name");

        draw_image(a);
        y = a->image.y;
        if (advertiser) y += draw_text(a, a->small, advertiser, text_x, y, text_w, rgb(0x6B, 0x77, 0x85)) + 4;
        y += draw_text(a, a->title, be_offer_title(offer), text_x, y, text_w, text);
        y = y > a->image.y + a->image.h ? y : a->image.y + a->image.h;
        draw_text(a, a->body, be_offer_description(offer), a->card.x + PAD, y + 18, a->card.w - 2 * PAD, text);

        fill_outlined(a->renderer, a->yes, 6, yes_bg, yes_stroke);
        draw_centered(a, a->bold, be_offer_cta_yes(offer) ? be_offer_cta_yes(offer) : "Yes", a->yes, yes_text);
        fill_outlined(a->renderer, a->no, 6, no_bg, no_stroke);
        draw_centered(a, a->bold, be_offer_cta_no(offer) ? be_offer_cta_no(offer) : "No thanks", a->no, no_text);

        /* the position indicator: one dot per offer, the current one in the accept colour */
        n = (int)be_offer_screen_offer_count(a->screen);
        dot_x = a->card.x + a->card.w / 2 - (n * 16) / 2;
        for (i = 0; i < n; i++) {
            box dot;
            dot.x = dot_x + i * 16 + 4;
            dot.y = a->card.y + a->card.h - PAD - 4;
            dot.w = 8;
            dot.h = 8;
            fill_rounded(a->renderer, dot, 4, 0, i == (int)be_offer_screen_index(a->screen) ? yes_bg : rgb(0xCC, 0xCC, 0xCC));
        }
    }

    /* below the card: what the SDK fired, the last action, the keys */
    memset(&stats, 0, sizeof stats);
    stats.struct_size = sizeof stats;
    be_sdk_get_stats(a->sdk, &stats);
    snprintf(line, sizeof line, "Beacons fired: %llu   delivered: %llu", (unsigned long long)stats.beacons_queued,
             (unsigned long long)stats.beacons_delivered);
    y = a->card.y + a->card.h + 14;
    y += draw_text(a, a->small, line, a->card.x, y, 0, rgb(0xE5, 0xE9, 0xF0));
    if (a->last_action[0]) y += draw_text(a, a->small, a->last_action, a->card.x, y + 2, a->card.w, rgb(0xB8, 0xC1, 0xCF));
    draw_text(a, a->small, "\xe2\x86\x90 \xe2\x86\x92 browse   Y accept   N decline   Esc close   Q quit", a->card.x,
              WINDOW_H - 26, 0, rgb(0x8A, 0x94, 0xA6));
    SDL_RenderPresent(a->renderer);
}

static int save_screenshot(app *a, const char *path) {
    SDL_Surface *surface = SDL_CreateRGBSurfaceWithFormat(0, WINDOW_W, WINDOW_H, 24, SDL_PIXELFORMAT_BGR24);
    int ok = surface && SDL_RenderReadPixels(a->renderer, NULL, SDL_PIXELFORMAT_BGR24, surface->pixels, surface->pitch) == 0 &&
             SDL_SaveBMP(surface, path) == 0;
    if (!ok) fprintf(stderr, "offer_window: cannot save %s: %s\n", path, SDL_GetError());
    SDL_FreeSurface(surface);
    printf("layout card=%d,%d,%d,%d header=%d,%d,%d,%d image=%d,%d,%d,%d yes=%d,%d,%d,%d no=%d,%d,%d,%d\n", a->card.x,
           a->card.y, a->card.w, a->card.h, a->header.x, a->header.y, a->header.w, a->header.h, a->image.x, a->image.y,
           a->image.w, a->image.h, a->yes.x, a->yes.y, a->yes.w, a->yes.h, a->no.x, a->no.y, a->no.w, a->no.h);
    return ok;
}

static TTF_Font *open_font(const char *path, int size) {
    TTF_Font *font = TTF_OpenFont(path, size);
    if (!font) fprintf(stderr, "offer_window: cannot open the font %s: %s\n", path, TTF_GetError());
    return font;
}

static const char *default_font(int bold) {
    static const char *regular[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf"};
    static const char *heavy[] = {"/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf", "/usr/share/fonts/TTF/DejaVuSans-Bold.ttf"};
    const char **list = bold ? heavy : regular;
    size_t i;
    for (i = 0; i < 2; i++) {
        FILE *file = fopen(list[i], "rb");
        if (file) {
            fclose(file);
            return list[i];
        }
    }
    return list[0];
}

int main(int argc, char **argv) {
    const char *moments_url = NULL, *key = "demo-key", *keys = NULL, *screenshot = NULL, *font = NULL, *bold_font = NULL;
    be_config *config;
    be_moments_request *request;
    SDL_Window *window;
    app a;
    int i, running = 1, status = 0;
    size_t next_key = 0;

    for (i = 1; i < argc; i++) {
        if (strcmp(argv[i], "--key") == 0 && i + 1 < argc) key = argv[++i];
        else if (strcmp(argv[i], "--keys") == 0 && i + 1 < argc) keys = argv[++i];
        else if (strcmp(argv[i], "--screenshot") == 0 && i + 1 < argc) screenshot = argv[++i];
        else if (strcmp(argv[i], "--font") == 0 && i + 1 < argc) font = bold_font = argv[++i];
        else if (argv[i][0] != '-' && !moments_url) moments_url = argv[i];
        else {
            fprintf(stderr, "usage: %s MOMENTS_URL [--key KEY] [--keys KEYS] [--screenshot FILE.bmp] [--font FILE.ttf]\n", argv[0]);
            return 2;
        }
    }
    if (!moments_url) {
        fprintf(stderr, "usage: %s MOMENTS_URL [--key KEY] [--keys KEYS] [--screenshot FILE.bmp] [--font FILE.ttf]\n", argv[0]);
        return 2;
    }
    if (!font) font = default_font(0);
    if (!bold_font) bold_font = default_font(1);

    memset(&a, 0, sizeof a);
    if (screenshot) SDL_SetHint(SDL_HINT_RENDER_DRIVER, "software"); /* the same pixels on every machine */
    SDL_SetHint(SDL_HINT_RENDER_SCALE_QUALITY, "linear");            /* creatives scale smoothly */
    if (SDL_Init(SDL_INIT_VIDEO) != 0 || TTF_Init() != 0 || (IMG_Init(IMG_INIT_PNG | IMG_INIT_JPG) & IMG_INIT_PNG) == 0) {
        fprintf(stderr, "offer_window: cannot start SDL: %s\n", SDL_GetError());
        return 1;
    }
    window = SDL_CreateWindow("BlinkEngage offers", SDL_WINDOWPOS_CENTERED, SDL_WINDOWPOS_CENTERED, WINDOW_W, WINDOW_H, 0);
    a.renderer = window ? SDL_CreateRenderer(window, -1, screenshot ? SDL_RENDERER_SOFTWARE : SDL_RENDERER_PRESENTVSYNC) : NULL;
    a.title = open_font(bold_font, 18);
    a.bold = open_font(bold_font, 15);
    a.body = open_font(font, 14);
    a.small = open_font(font, 12);
    if (!a.renderer || !a.title || !a.bold || !a.body || !a.small) {
        fprintf(stderr, "offer_window: cannot open a window: %s\n", SDL_GetError());
        return 1;
    }
    layout(&a);

    config = be_config_new(key);
    if (be_config_set_moments_url(config, moments_url) != BE_OK ||
        be_config_set_callback_mode(config, BE_CALLBACKS_ON_DISPATCH) != BE_OK || be_sdk_start(config, &a.sdk) != BE_OK) {
        fprintf(stderr, "offer_window: cannot start the SDK: %s\n", be_last_error_message());
        return 1;
    }
    request = be_moments_request_new();
    be_moments_request_set_payload(request, "placement", "checkout");
    if (be_sdk_fetch_moments_offers(a.sdk, request, on_offers, &a) != BE_OK) {
        fprintf(stderr, "offer_window: %s\n", be_last_error_message());
        return 1;
    }

    while (running) {
        SDL_Event event;
        be_sdk_dispatch(a.sdk, 0); /* the SDK's callbacks run here, on this thread, once per frame */
        if (a.fetched && !a.screen && a.response) a.screen = be_sdk_moments_screen(a.sdk, a.response);
        if (a.fetched && !a.screen && screenshot) { /* nothing to show: the error is the picture */
            draw_frame(&a);
            save_screenshot(&a, screenshot);
            status = 1;
            break;
        }
        if (a.screen) request_creative(&a);
        while (SDL_PollEvent(&event)) {
            if (event.type == SDL_QUIT) running = 0;
            else if (event.type == SDL_KEYDOWN && a.screen && !keys) {
                switch (event.key.keysym.sym) {
                case SDLK_RIGHT: running = apply_key(&a, 'r'); break;
                case SDLK_LEFT: running = apply_key(&a, 'l'); break;
                case SDLK_y: case SDLK_RETURN: running = apply_key(&a, 'y'); break;
                case SDLK_n: running = apply_key(&a, 'n'); break;
                case SDLK_ESCAPE: running = apply_key(&a, 'c'); break;
                case SDLK_q: running = 0; break;
                default: break;
                }
            } else if (event.type == SDL_MOUSEBUTTONDOWN && a.screen && !keys && !be_offer_screen_is_finished(a.screen)) {
                if (inside(a.yes, event.button.x, event.button.y)) apply_key(&a, 'y');
                else if (inside(a.no, event.button.x, event.button.y)) apply_key(&a, 'n');
                else if (inside(a.close_box, event.button.x, event.button.y)) apply_key(&a, 'c');
            }
        }
        if (a.screen && keys && creative_settled(&a)) {
            if (keys[next_key]) {
                running = apply_key(&a, keys[next_key++]);
                continue; /* the next frame asks for the new offer's creative first */
            }
            if (screenshot) {
                draw_frame(&a);
                status = save_screenshot(&a, screenshot) ? 0 : 1;
                break;
            }
        }
        draw_frame(&a);
        if (!screenshot) SDL_Delay(16); /* a frame's pace when the renderer does not wait for vsync */
    }

    be_offer_screen_free(a.screen);
    be_moments_response_release(a.response);
    be_sdk_shutdown(a.sdk, 2000); /* runs the callbacks still owed (they only fill slots) */
    for (i = 0; i < MAX_OFFERS; i++) {
        if (a.slots[i].texture) SDL_DestroyTexture(a.slots[i].texture);
    }
    be_moments_request_free(request);
    be_config_free(config);
    TTF_CloseFont(a.title);
    TTF_CloseFont(a.bold);
    TTF_CloseFont(a.body);
    TTF_CloseFont(a.small);
    SDL_DestroyRenderer(a.renderer);
    SDL_DestroyWindow(window);
    IMG_Quit();
    TTF_Quit();
    SDL_Quit();
    return status;
}
