import com.blinkengage.BlinkEngage;
import com.blinkengage.Config;
import com.blinkengage.FeedEvent;
import com.blinkengage.FeedEventType;
import com.blinkengage.MomentsRequest;
import com.blinkengage.MomentsResponse;
import com.blinkengage.Offer;
import com.blinkengage.OfferFeed;
import com.blinkengage.Sdk;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.Arrays;
import java.util.concurrent.atomic.AtomicReference;

/**
 * The Java binding's side of the bindings benchmark (scripts/bench.sh): the same work as fetch_blinkengage.c,
 * report_blinkengage.c and field_blinkengage.c, printed the same way ("median_us p99_us count checksum"). Each
 * mode first runs as many untimed calls as it times, so the numbers are the JIT's compiled code, as in a running app.
 *   java BindingBench fetch MOMENTS_URL CALLS | report ENGAGE_URL CALLS | field MOMENTS_URL BATCHES
 */
public final class BindingBench {
    private static final String[] SCALAR_KEYS = {
        "campaign_id", "mini_text", "pixel", "adv_pixel_url", "useraction_cta", "useraction_url", "short_headline",
        "short_description", "advertiser_name", "is_loyaltyboost", "loyaltyboost_requirements", "save_for_later_url",
        "offer_description", "offerwall_url", "qr_code_img",
    };

    private static long length(String text) { return text == null ? 0 : text.getBytes(StandardCharsets.UTF_8).length; }

    // Dispatches until done, waiting on the dispatch descriptor in between (as fetch_blinkengage.c polls it).
    private static void until(Sdk sdk, java.util.function.BooleanSupplier done) {
        while (!done.getAsBoolean()) {
            sdk.awaitCallbacks(1000);
            sdk.dispatch();
        }
    }

    public static void main(String[] args) throws Exception {
        String mode = args[0];
        int count = Integer.parseInt(args[2]);
        double[] costs = new double[count];
        long[] sum = {0};
        long offers = 0;
        String storage = Files.createTempDirectory("be-java-bench-").toString();
        try (Config config = new Config("bench-key").storageDir(storage)) {
            if (mode.equals("report")) config.engageUrl(args[1]); else config.momentsUrl(args[1]);
            try (Sdk sdk = BlinkEngage.start(config); MomentsRequest request = new MomentsRequest().payload("placement", "checkout")) {
                sdk.setShutdownTimeoutMs(0);
                if (mode.equals("fetch")) {
                    long[] seen = {0};
                    for (int i = -count; i < count; i++) {  // the first half untimed: the JIT's warm-up
                        long start = System.nanoTime();
                        boolean[] done = {false};
                        sdk.fetchMomentsOffers(request, (response, error) -> {
                            if (error != null) throw error;
                            seen[0] = response.offers().size();
                            for (Offer offer : response.offers()) {
                                sum[0] += length(offer.id()) + length(offer.title()) + length(offer.description())
                                        + length(offer.imageUrl()) + length(offer.clickUrl()) + length(offer.ctaYes())
                                        + length(offer.ctaNo()) + length(offer.termsHtml());
                                for (String key : SCALAR_KEYS) sum[0] += length(offer.field(key));
                                sum[0] += length(offer.json());
                            }
                            response.close();
                            done[0] = true;
                        });
                        until(sdk, () -> done[0]);
                        if (i >= 0) costs[i] = (System.nanoTime() - start) / 1000.0;
                    }
                    offers = seen[0];
                } else if (mode.equals("report")) {
                    sdk.setUserIdentity("bench-user");
                    AtomicReference<OfferFeed> loaded = new AtomicReference<>();
                    sdk.loadOfferFeed((feed, error) -> { if (error != null) throw error; loaded.set(feed); });
                    until(sdk, () -> loaded.get() != null);
                    try (OfferFeed feed = loaded.get();
                         FeedEvent tap = new FeedEvent(feed.groups().get(0).offers().get(0), FeedEventType.DID_TAP)) {
                        for (int i = -count; i < count; i++) {
                            long start = System.nanoTime();
                            sdk.reportOfferFeedEvent(tap);
                            if (i >= 0) costs[i] = (System.nanoTime() - start) / 1000.0;
                        }
                    }
                    offers = count;
                } else {
                    AtomicReference<MomentsResponse> fetched = new AtomicReference<>();
                    sdk.fetchMomentsOffers(request, (response, error) -> { if (error != null) throw error; fetched.set(response); });
                    until(sdk, () -> fetched.get() != null);
                    try (MomentsResponse response = fetched.get()) {
                        // A field read that goes to the answer each time, as the C and C# contenders' title reads do;
                        // a value's getter (offer.title()) costs nothing but a field load.
                        Offer offer = response.offers().get(0);
                        for (int i = -count; i < count; i++) {
                            long start = System.nanoTime();
                            for (int k = 0; k < 1000; k++) sum[0] += offer.field("title").length();
                            if (i >= 0) costs[i] = (System.nanoTime() - start) / 1000.0 / 1000.0;
                        }
                        offers = response.offers().size();
                    }
                }
            }
        }
        Arrays.sort(costs);
        System.out.printf("%.3f %.3f %d %d%n", costs[count / 2], costs[(int) (0.99 * (count - 1))], offers, sum[0]);
    }
}
