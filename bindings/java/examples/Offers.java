import com.blinkengage.BlinkEngage;
import com.blinkengage.Config;
import com.blinkengage.MomentsRequest;
import com.blinkengage.MomentsResponse;
import com.blinkengage.Offer;
import com.blinkengage.Sdk;
import java.util.concurrent.CompletableFuture;

/** The README's Java example, complete: fetch offers for a checkout and print them.   java Offers MOMENTS_URL */
public final class Offers {
    public static void main(String[] args) throws Exception {
        try (Config config = new Config("demo-key").momentsUrl(args[0]);
             Sdk sdk = BlinkEngage.start(config);
             MomentsRequest request = new MomentsRequest().payload("placement", "checkout")) {
            CompletableFuture<MomentsResponse> offers = sdk.fetchMomentsOffers(request);
            while (!offers.isDone()) { sdk.awaitCallbacks(1000); sdk.dispatch(); }   // the app's loop, like Android's looper
            try (MomentsResponse response = offers.get()) {
                for (Offer offer : response.offers()) System.out.println(offer.id() + ": " + offer.title());
                System.out.println(response.offers().size() + " offers");
            }
        }
    }
}
