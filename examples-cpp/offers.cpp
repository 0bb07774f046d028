// offers.cpp — libblinkengage from C++17: every handle owned by a std::unique_ptr with its matching free or
// release function, callbacks turned into std::future results.
//
//   c++ -std=c++17 offers.cpp -o offers $(pkg-config --cflags --libs blinkengage) -lpthread
//   ./offers SANDBOX_URL
#include <blinkengage.h>

#include <chrono>
#include <cstdio>
#include <future>
#include <memory>
#include <stdexcept>
#include <string>

namespace be {

// One deleter per handle type, so unique_ptr ends each with the function the header names for it.
struct ConfigFree { void operator()(be_config *c) const { be_config_free(c); } };
struct SdkShutdown { void operator()(be_sdk *s) const { be_sdk_shutdown(s, 2000); } };
struct RequestFree { void operator()(be_moments_request *r) const { be_moments_request_free(r); } };
struct ResponseRelease { void operator()(be_moments_response *r) const { be_moments_response_release(r); } };
struct FeedRelease { void operator()(be_offer_feed *f) const { be_offer_feed_release(f); } };
struct ScreenFree { void operator()(be_offer_screen *s) const { be_offer_screen_free(s); } };
struct EventFree { void operator()(be_offer_feed_event *e) const { be_offer_feed_event_free(e); } };

using Config = std::unique_ptr<be_config, ConfigFree>;
using Sdk = std::unique_ptr<be_sdk, SdkShutdown>;
using Request = std::unique_ptr<be_moments_request, RequestFree>;
using Response = std::unique_ptr<be_moments_response, ResponseRelease>;
using Feed = std::unique_ptr<be_offer_feed, FeedRelease>;
using Screen = std::unique_ptr<be_offer_screen, ScreenFree>;
using Event = std::unique_ptr<be_offer_feed_event, EventFree>;

struct Error : std::runtime_error {
    using std::runtime_error::runtime_error;
};

// Throws with the thread's detail message when a call fails.
inline void check(be_status status, const char *what) {
    if (status != BE_OK) throw Error(std::string(what) + ": " + be_last_error_message());
}

inline std::string text(const char *value) { return value ? value : "-"; }

// A callback result: the retained object, or the error's text. Set exactly once by the SDK.
template <typename Handle>
struct Pending {
    std::promise<Handle> promise;

    static std::string describe(const be_error *error) {
        return std::string(error->domain) + " " + std::to_string(error->code) + ": " + error->message;
    }
};

inline Response fetch_offers(be_sdk *sdk, const std::string &placement) {
    Request request(be_moments_request_new());
    check(be_moments_request_set_payload(request.get(), "placement", placement.c_str()), "placement");
    Pending<Response> pending;
    auto future = pending.promise.get_future();
    check(be_sdk_fetch_moments_offers(
              sdk, request.get(),
              [](be_moments_response *response, const be_error *error, void *user_data) {
                  auto *p = static_cast<Pending<Response> *>(user_data);
                  if (error) p->promise.set_exception(std::make_exception_ptr(Error(Pending<Response>::describe(error))));
                  else p->promise.set_value(Response(be_moments_response_retain(response)));
              },
              &pending),
          "fetch");
    return future.get();  // the callback runs on the SDK's thread; `pending` outlives it
}

inline Feed load_feed(be_sdk *sdk) {
    Pending<Feed> pending;
    auto future = pending.promise.get_future();
    check(be_sdk_load_offer_feed(
              sdk,
              [](be_offer_feed *feed, const be_error *error, void *user_data) {
                  auto *p = static_cast<Pending<Feed> *>(user_data);
                  if (error) p->promise.set_exception(std::make_exception_ptr(Error(Pending<Feed>::describe(error))));
                  else p->promise.set_value(Feed(be_offer_feed_retain(feed)));
              },
              &pending),
          "load");
    return future.get();
}

}  // namespace be

int main(int argc, char **argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: %s SANDBOX_URL\n", argv[0]);
        return 2;
    }
    try {
        const std::string base = argv[1];
        char storage[] = "/tmp/blinkengage-cpp-XXXXXX";
        if (!mkdtemp(storage)) throw be::Error("cannot make a storage directory");
        be::Config config(be_config_new("demo-key"));
        if (!config) throw be::Error(be_last_error_message());
        be::check(be_config_set_moments_url(config.get(), (base + "/native/v4").c_str()), "moments url");
        be::check(be_config_set_engage_url(config.get(), base.c_str()), "engage url");
        be::check(be_config_set_storage_dir(config.get(), storage), "storage");
        be::check(be_config_set_feed_cache(config.get(), 24 * 3600), "feed cache");  // a dead network still shows the feed
        be_sdk *raw = nullptr;
        be::check(be_sdk_start(config.get(), &raw), "start");
        be::Sdk sdk(raw);
        // The consent platform's answers, set at each start (kept in memory only).
        be::check(be_sdk_set_gdpr(sdk.get(), 1, "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA"), "gdpr");
        be::check(be_sdk_set_us_privacy(sdk.get(), "1YNN"), "us privacy");
        {
            // Fetch ahead of the moment: the fetch below is answered from this, without a request.
            be::Request ahead(be_moments_request_new());
            be::check(be_moments_request_set_payload(ahead.get(), "placement", "checkout"), "payload");
            be::check(be_sdk_prefetch_moments_offers(sdk.get(), ahead.get()), "prefetch");
        }

        be::Response response = be::fetch_offers(sdk.get(), "checkout");
        be_stats stats{};
        stats.struct_size = sizeof stats;
        be::check(be_sdk_get_stats(sdk.get(), &stats), "stats");
        std::printf("moments: %zu offers, button colour %s%s\n", be_moments_response_offer_count(response.get()),
                    be::text(be_moments_response_style(response.get(), "offerText.buttonYes.background")).c_str(),
                    stats.prefetch_hits ? " (prefetched)" : "");
        be::Screen unit(be_sdk_moments_screen(sdk.get(), response.get()));
        while (const be_offer *offer = be_offer_screen_current_offer(unit.get())) {
            std::printf("  unit shows %s: %s\n", be_offer_id(offer), be::text(be_offer_title(offer)).c_str());
            be::check(be_offer_screen_decline(unit.get()), "decline");
        }

        be::check(be_sdk_set_user_identity(sdk.get(), "cpp-user"), "identity");
        be::Feed feed = be::load_feed(sdk.get());
        std::printf("feed %s: %zu groups%s\n", be_offer_feed_id(feed.get()), be_offer_feed_group_count(feed.get()),
                    be_offer_feed_is_cached(feed.get()) ? " (cached)" : "");
        const be_offer_group *group = be_offer_feed_group_at(feed.get(), 0);
        be::Event viewed(be_offer_feed_event_new_with_group(group, BE_OFFER_FEED_EVENT_VIEW_ALL));
        be::check(be_sdk_report_offer_feed_event(sdk.get(), viewed.get()), "report");
        be::check(be_sdk_flush(sdk.get(), 10000), "flush");
        std::printf("reported view_all for %s\n", be_offer_group_id(group));
        return 0;  // unique_ptrs end every handle in reverse order: screen, feed, response, then the SDK
    } catch (const std::exception &error) {
        std::fprintf(stderr, "error: %s\n", error.what());
        return 1;
    }
}
