package com.blinkengage;

import static com.blinkengage.Results.until;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpResponse.BodyHandlers;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.Test;

/** Many fetches and many offers through an in-memory transport: flat heap, flat global references, no local
 *  reference overflow (the suite runs under -Xcheck:jni too, which reports any). */
public class SoakTest {
    private static final List<String> JSON = List.of("Content-Type: application/json");

    private static byte[] answer(Sandbox sandbox) throws Exception {
        return HttpClient.newHttpClient().send(java.net.http.HttpRequest.newBuilder(
                URI.create(sandbox.url + "/native/v4/offers.json?api_key=demo-key"))
                .POST(java.net.http.HttpRequest.BodyPublishers.ofString("{\"placement\": \"checkout\"}")).build(),
                BodyHandlers.ofByteArray()).body();
    }

    private static long usedHeap() {
        Runtime runtime = Runtime.getRuntime();
        for (int i = 0; i < 3; i++) System.gc();
        return runtime.totalMemory() - runtime.freeMemory();
    }

    @Test public void tenThousandFetchesKeepHeapAndReferencesFlat() throws Exception {
        byte[] body;
        try (Sandbox sandbox = new Sandbox()) {
            body = answer(sandbox);
        }
        long globals = BlinkEngage.globalReferences();
        try (Config config = new Config("demo-key").momentsUrl("http://127.0.0.1:9/native/v4")
                .httpTransport(request -> request.complete(200, JSON, body));
             Sdk sdk = BlinkEngage.start(config); MomentsRequest request = new MomentsRequest().payload("placement", "checkout")) {
            long withTransport = BlinkEngage.globalReferences();
            AtomicInteger counted = new AtomicInteger();
            long heapAfterWarmUp = 0;
            for (int batch = 0; batch < 100; batch++) {
                int target = counted.get() + 100;
                for (int i = 0; i < 100; i++) {
                    sdk.fetchMomentsOffers(request, (response, error) -> {
                        if (response.offers().get(0).id().equals("4001")) counted.incrementAndGet();
                        response.close();
                    });
                }
                until(sdk, () -> counted.get() == target, "a batch");
                assertEquals("global references after batch " + batch, withTransport, BlinkEngage.globalReferences());
                if (batch == 9) heapAfterWarmUp = usedHeap();
            }
            assertEquals(10000, counted.get());
            long growth = usedHeap() - heapAfterWarmUp;
            assertTrue("heap grew by " + growth + " bytes over 9,000 fetches", growth < 4 << 20);
        }
        assertEquals(globals, BlinkEngage.globalReferences());
    }

    @Test public void tenThousandOffersInOneAnswerOnAnSdkThread() throws Exception {
        StringBuilder json = new StringBuilder("{\"data\": {\"count\": 10000, \"offers\": [");
        for (int i = 0; i < 10000; i++) {
            if (i > 0) json.append(',');
            json.append("{\"id\": ").append(5000 + i).append(", \"title\": \"Offer ").append(i)
                .append("\", \"click_url\": \"https://example.com/c?o=").append(i).append("\"}");
        }
        byte[] body = json.append("]}}").toString().getBytes(StandardCharsets.UTF_8);
        try (Config config = new Config("demo-key").momentsUrl("http://127.0.0.1:9/native/v4").callbackMode(CallbackMode.SDK_THREAD)
                .httpTransport(request -> request.complete(200, JSON, body));
             Sdk sdk = BlinkEngage.start(config); MomentsRequest request = new MomentsRequest().payload("placement", "checkout")) {
            for (int round = 0; round < 3; round++) {
                try (MomentsResponse response = sdk.fetchMomentsOffers(request).get()) {
                    assertEquals(10000, response.offers().size());
                    assertEquals("Offer 9999", response.offers().get(9999).title());
                }
            }
        }
    }
}
