import com.blinkengage.BlinkEngage;
import com.blinkengage.Config;
import com.blinkengage.MomentsRequest;
import com.blinkengage.MomentsResponse;
import com.blinkengage.Offer;
import com.blinkengage.OfferFeed;
import com.blinkengage.OfferGroup;
import com.blinkengage.Sdk;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The README's first program, complete: offers for a checkout and the user's offer feed, with every setting the
 * feed needs, callbacks dispatched on this thread as an app's looper would.
 *   java -cp blinkengage.jar:. Offers MOMENTS_URL ENGAGE_URL [STORAGE_DIR]
 */
public final class Offers {
    public static void main(String[] args) throws Exception {
        // Where the SDK keeps the user's identity, queued reports and caches: a directory of the app's own.
        Path storage = args.length > 2 ? Path.of(args[2]) : Path.of(System.getProperty("user.home"), ".my-app", "blinkengage");
        Files.createDirectories(storage);
        try (Config config = new Config("demo-key")        // the publisher's API key
                 .momentsUrl(args[0])                       // offers at moments like checkout
                 .engageUrl(args[1])                        // the offer feed and the events it reports
                 .storageDir(storage.toString());
             Sdk sdk = BlinkEngage.start(config);
             MomentsRequest request = new MomentsRequest().payload("placement", "checkout")) {
            sdk.setUserIdentity("user-42");                 // the app's own id for the user: without one the feed fails (1)
            AtomicInteger pending = new AtomicInteger(2);
            sdk.fetchMomentsOffers(request, (response, error) -> {
                pending.decrementAndGet();
                if (error != null) { System.out.println("no offers: " + error.getMessage()); return; }
                try (MomentsResponse offers = response) {
                    for (Offer offer : offers.offers()) System.out.println(offer.id() + ": " + offer.title());
                    System.out.println(offers.offers().size() + " offers");
                }
            });
            sdk.loadOfferFeed((feed, error) -> {
                pending.decrementAndGet();
                // Code 1: no user identity; 2: the feed is off or unreachable now (show nothing).
                if (error != null) { System.out.println("no feed (" + error.code() + "): " + error.getMessage()); return; }
                try (OfferFeed groups = feed) {
                    for (OfferGroup group : groups.groups()) System.out.println(group.title() + ": " + group.offers().size() + " offers");
                    System.out.println(groups.groups().size() + " groups");
                }
            });
            while (pending.get() > 0) { sdk.awaitCallbacks(1000); sdk.dispatch(); }   // the app's looper: callbacks run here
        }   // close shuts down: reports still queued are delivered for up to 2 s, the rest at the next start
    }
}
