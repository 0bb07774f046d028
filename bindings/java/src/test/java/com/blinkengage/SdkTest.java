package com.blinkengage;

import static com.blinkengage.Results.ok;
import static com.blinkengage.Results.until;
import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertFalse;
import static org.junit.Assert.assertNotNull;
import static org.junit.Assert.assertNull;
import static org.junit.Assert.assertThrows;
import static org.junit.Assert.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.After;
import org.junit.Before;
import org.junit.Test;

/** The Java binding against the sandbox: every path of the API, its errors, threads and lifecycle edges. */
public class SdkTest {
    private Sandbox sandbox;
    private long globalsBefore;

    @Before public void startSandbox() throws Exception {
        sandbox = new Sandbox();
        globalsBefore = BlinkEngage.globalReferences();
    }

    @After public void stopSandbox() throws Exception {
        sandbox.close();
    }

    private static MomentsRequest checkout() { return new MomentsRequest().payload("placement", "checkout"); }

    private void assertNoReferencesLeft() {
        assertEquals("JNI global references back where they were", globalsBefore, BlinkEngage.globalReferences());
    }

    @Test public void theVersionIsTheHeaders() throws Exception {
        String header = Files.readString(Path.of(System.getProperty("blinkengage.top", "../.."), "include", "blinkengage.h"));
        String expected = IntStream.of(0, 1, 2).mapToObj(i -> header.split("#define BE_VERSION_" + new String[] {"MAJOR", "MINOR", "PATCH"}[i] + " ")[1].split("\\s")[0])
                .collect(Collectors.joining("."));
        assertEquals(expected, BlinkEngage.version());
    }

    @Test public void momentsOffersWithEveryField() {
        try (Config config = sandbox.config(); Sdk sdk = BlinkEngage.start(config); MomentsRequest request = checkout();
             MomentsResponse response = ok(sdk, l -> sdk.fetchMomentsOffers(request, l), "fetch")) {
            assertEquals(List.of("4001", "4002", "4003"), response.offers().stream().map(Offer::id).collect(Collectors.toList()));
            Offer offer = response.offers().get(0);
            assertTrue(offer.title().length() > 0 && offer.description().length() > 0);
            assertTrue(offer.clickUrl(), offer.clickUrl().startsWith("https://"));
            assertTrue(offer.pixelUrl(), offer.pixelUrl().endsWith("/b/track/sdk/v2/impression/p.png?o_id=4001&sess_id=5f2c0001e1&cbuster=%7Bcbuster%7D"));
            assertTrue(offer.advertiserPixelUrl(), offer.advertiserPixelUrl().endsWith("/b/adv/imp?o=4001&cb={cbuster}"));
            assertTrue(offer.closeBeaconUrl(), offer.closeBeaconUrl().endsWith("/b/track/event/record/close?o_id=4001&sess_id=5f2c0001e1"));
            assertTrue(offer.noThanksBeaconUrl(), offer.noThanksBeaconUrl().endsWith("/b/track/event/record/no_thanks_click?o_id=4001&sess_id=5f2c0001e1"));
            assertNotNull(offer.ctaYes());
            assertNotNull(offer.ctaNo());
            assertNotNull(offer.imageUrl());
            assertNotNull(offer.termsHtml());
            assertEquals("Streamly", offer.field("advertiser_name"));
            assertTrue(offer.json().replace(" ", "").contains("\"campaign_id\":1201"));
            assertEquals("#1A73E8", response.style("offerText.buttonYes.background"));
            assertFalse(offer.creatives().isEmpty());
            assertTrue(offer.creatives().stream().anyMatch(Creative::primary));
            Creative creative = offer.creatives().get(0);
            assertTrue(creative.url().startsWith("http") && creative.width() > 0 && creative.height() > 0);
            String privacy = response.privacyUrl();
            assertTrue(privacy == null || privacy.startsWith("http"));
        }
        assertNoReferencesLeft();
    }

    @Test public void futuresCompleteOnTheDispatchingThread() throws Exception {
        try (Config config = sandbox.config(); Sdk sdk = BlinkEngage.start(config); MomentsRequest request = checkout()) {
            AtomicReference<Thread> completedOn = new AtomicReference<>();
            CompletableFuture<MomentsResponse> future = sdk.fetchMomentsOffers(request);
            future.whenComplete((r, e) -> completedOn.set(Thread.currentThread()));
            until(sdk, future::isDone, "the future");
            assertEquals(Thread.currentThread(), completedOn.get());
            try (MomentsResponse response = future.get()) {
                assertEquals(3, response.offers().size());
            }
            CompletableFuture<OfferFeed> feed = sdk.loadOfferFeed();
            until(sdk, feed::isDone, "the feed");
            ServiceException error = (ServiceException) feed.handle((f, e) -> e).get();
            assertEquals(ErrorCode.OFFER_FEED_NO_USER, error.errorCode());
            CompletableFuture<ZoneAd> ad = sdk.fetchZoneAd("1");
            until(sdk, ad::isDone, "the zone ad");
            try (ZoneAd zone = ad.get()) {
                assertTrue(zone.isEnabled());
            }
            CompletableFuture<Image> image = sdk.fetchImage(sandbox.url + "/cdn/a.png");
            until(sdk, image::isDone, "the image");
            try (Image png = image.get()) {
                assertEquals("image/png", png.contentType());
            }
        }
        assertNoReferencesLeft();
    }

    @Test public void momentsParametersAreValidatedBeforeAnyRequest() {
        try (MomentsRequest request = new MomentsRequest()) {
            BlinkEngageException refused = assertThrows(BlinkEngageException.class, () -> request.loyaltyBoost("7"));
            assertEquals(Status.INVALID_ARGUMENT, refused.status());
            assertFalse(refused.getMessage().isEmpty());
            assertThrows(BlinkEngageException.class, () -> request.creative("2"));
            request.loyaltyBoost("2").creative("1").campaignId("1201").development(true);
        }
    }

    @Test public void eachMomentsFailureHasItsCode() throws Exception {
        try (Config config = sandbox.config(); Sdk sdk = BlinkEngage.start(config)) {
            try (MomentsRequest none = checkout().campaignId("999")) {
                ServiceException error = Results.<MomentsResponse>fails(sdk, l -> sdk.fetchMomentsOffers(none, l), "no offers");
                assertEquals(ErrorDomain.MOMENTS, error.domain());
                assertEquals(ErrorCode.MOMENTS_NO_OFFERS, error.errorCode());
            }
            try (MomentsRequest request = checkout()) {
                sandbox.post("/_sandbox/faults", "{\"path\": \"offers.json\", \"status\": 503, \"times\": 1}");
                ServiceException error = Results.<MomentsResponse>fails(sdk, l -> sdk.fetchMomentsOffers(request, l), "503");
                assertEquals(ErrorCode.MOMENTS_HTTP_STATUS, error.errorCode());
                assertEquals(503, error.httpStatus());
                sandbox.post("/_sandbox/faults", "{\"path\": \"offers.json\", \"malformed\": true, \"times\": 1}");
                assertEquals(ErrorCode.MOMENTS_DECODING, Results.<MomentsResponse>fails(sdk, l -> sdk.fetchMomentsOffers(request, l), "malformed").errorCode());
            }
        }
        try (Config config = new Config("").momentsUrl("http://127.0.0.1:9/native/v4"); Sdk sdk = BlinkEngage.start(config);
             MomentsRequest request = checkout()) {
            assertEquals(ErrorCode.MOMENTS_INVALID_PARAMETER, Results.<MomentsResponse>fails(sdk, l -> sdk.fetchMomentsOffers(request, l), "no key").errorCode());
        }
        int unused;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            unused = socket.getLocalPort();
        }
        try (Config config = new Config("demo-key").momentsUrl("http://127.0.0.1:" + unused + "/native/v4");
             Sdk sdk = BlinkEngage.start(config); MomentsRequest request = checkout()) {
            assertEquals(ErrorCode.MOMENTS_NETWORK, Results.<MomentsResponse>fails(sdk, l -> sdk.fetchMomentsOffers(request, l), "nothing listening").errorCode());
        }
        assertNoReferencesLeft();
    }

    @Test public void theFeedItsScreensAndEvents() throws Exception {
        try (Config config = sandbox.config(); Sdk sdk = BlinkEngage.start(config)) {
            assertEquals(ErrorCode.OFFER_FEED_NO_USER, Results.<OfferFeed>fails(sdk, sdk::loadOfferFeed, "no user").errorCode());
            sdk.setUserIdentity("java-user");
            try (OfferFeed feed = ok(sdk, sdk::loadOfferFeed, "feed")) {
                assertEquals(List.of("g_entertainment", "g_food"), feed.groups().stream().map(OfferGroup::id).collect(Collectors.toList()));
                assertNotNull(feed.id());
                assertFalse(feed.isCached());
                OfferGroup group = feed.groups().get(0);
                assertFalse(group.title().isEmpty());
                try (OfferScreen screen = sdk.offerGroupScreen(group)) {
                    assertNotNull(screen);
                    assertEquals(2, screen.offerCount());
                    assertTrue(screen.hasNext() && !screen.hasPrevious());
                    assertTrue(screen.accept().startsWith("https://track.example.com/sdk/offer_click?o_id=4001"));
                    assertEquals("4003", screen.currentOffer().id());
                }
                try (FeedEvent viewAll = new FeedEvent(group, FeedEventType.VIEW_ALL);
                     FeedEvent appear = new FeedEvent(feed.groups().get(1).offers().get(0), FeedEventType.DID_APPEAR)) {
                    sdk.reportOfferFeedEvent(viewAll);
                    sdk.reportOfferFeedEvent(appear);
                }
                assertThrows(BlinkEngageException.class, () -> new FeedEvent(group, FeedEventType.DID_TAP));
                sdk.flush(30000);
                String events = sandbox.get("/_sandbox/events");
                assertTrue(events, events.contains("\"distinct\": 2"));
                assertTrue(events, events.contains("\"group_position\": 0") && events.contains("\"group_position\": 1"));
                assertEquals(2, sdk.stats().eventsDelivered());
                try (OfferWall wall = sdk.offerWall()) {  // the SDK records the wall's events itself
                    assertEquals(OfferWall.Level.WALL, wall.level());
                    wall.reportVisibility(1, 0, 1.0);
                    wall.openOffer(1, 0);
                    assertEquals(OfferWall.Level.OFFER, wall.level());
                    assertEquals("4002", wall.currentOfferID());
                    assertTrue(wall.accept().startsWith("https://"));
                    assertEquals(OfferWall.Level.WALL, wall.level());
                    assertThrows(BlinkEngageException.class, () -> wall.openOffer(9, 0));
                    wall.dismiss();
                    assertEquals(OfferWall.Level.CLOSED, wall.level());
                }
                sdk.flush(30000);
                String wallEvents = sandbox.get("/_sandbox/events");
                assertTrue(wallEvents, wallEvents.contains("\"distinct\": 4"));  // and the wall's did_appear and did_tap
                try (OfferFeed newer = ok(sdk, sdk::loadOfferFeed, "a newer feed")) {
                    assertNull("an older load's offer has no screen", sdk.offerDetailsScreen(feed.groups().get(1).offers().get(0)));
                    try (OfferScreen screen = sdk.offerDetailsScreen(newer.groups().get(1).offers().get(0))) {
                        assertNotNull(screen);
                    }
                }
            }
            sandbox.post("/_sandbox/feed", "{\"mode\": \"disabled\"}");
            assertEquals(ErrorCode.OFFER_FEED_UNAVAILABLE, Results.<OfferFeed>fails(sdk, sdk::loadOfferFeed, "disabled").errorCode());
        }
        assertNoReferencesLeft();
    }

    @Test public void concurrentFeedLoadsShareOneRequest() throws Exception {
        try (Config config = sandbox.config(); Sdk sdk = BlinkEngage.start(config)) {
            sdk.setUserIdentity("java-shared");
            sandbox.post("/_sandbox/faults", "{\"path\": \"/v1/offer-feed\", \"gate\": true, \"times\": 1}");
            List<OfferFeed> feeds = Collections.synchronizedList(new ArrayList<>());
            List<Thread> threads = new ArrayList<>();
            for (int i = 0; i < 32; i++) threads.add(new Thread(() -> sdk.loadOfferFeed((feed, error) -> feeds.add(feed))));
            for (Thread t : threads) t.start();
            for (Thread t : threads) t.join();
            sandbox.post("/_sandbox/release", "{}");
            until(sdk, () -> feeds.size() == 32, "32 loads");
            assertEquals(1, sandbox.requests("/v1/offer-feed"));
            assertEquals(1, feeds.stream().map(OfferFeed::id).distinct().count());
            feeds.forEach(OfferFeed::close);
        }
        assertNoReferencesLeft();
    }

    @Test public void theMomentsUnitWithItsBeacons() {
        try (Config config = sandbox.config(); Sdk sdk = BlinkEngage.start(config); MomentsRequest request = checkout();
             MomentsResponse response = ok(sdk, l -> sdk.fetchMomentsOffers(request, l), "fetch");
             OfferScreen screen = sdk.momentsScreen(response)) {
            assertEquals("Thanks for your order", screen.style("header.text"));
            assertEquals(0, screen.index());
            screen.showNext();
            assertEquals("4002", screen.currentOffer().id());
            screen.showPrevious();
            assertEquals("4001", screen.currentOffer().id());
            screen.decline();
            assertEquals("4002", screen.currentOffer().id());
            screen.dismiss();
            assertTrue(screen.isFinished());
            assertNull(screen.currentOffer());
            assertEquals(Status.INVALID_STATE, assertThrows(BlinkEngageException.class, screen::showNext).status());
            sdk.flush(30000);
            assertTrue(sdk.stats().beaconsDelivered() > 0);
        }
    }

    @Test public void zoneAdsImagesPrivacyStatsAndStorage() {
        try (Config config = sandbox.config(); Sdk sdk = BlinkEngage.start(config)) {
            try (ZoneAd ad = ok(sdk, l -> sdk.fetchZoneAd("1", l), "zone 1")) {
                assertEquals("https://www.example.com/landing?zone=1", ad.linkUrl());
                assertEquals(sandbox.url + "/cdn/zones/1/banner.png", ad.imageUrl());
                sdk.reportZoneAdClick(ad);
                try (Image image = ok(sdk, l -> sdk.fetchImage(ad.imageUrl(), l), "its image")) {
                    byte[] data = image.data();
                    assertEquals("PNG", new String(data, 1, 3, StandardCharsets.US_ASCII));
                    assertFalse(image.isFromCache());
                }
                try (Image again = ok(sdk, l -> sdk.fetchImage(ad.imageUrl(), l), "again")) {
                    assertTrue(again.isFromCache());
                }
            }
            try (ZoneAd hidden = ok(sdk, l -> sdk.fetchZoneAd("2", l), "zone 2")) {
                assertFalse(hidden.isEnabled());
            }
            assertEquals(ErrorCode.ZONE_AD_MALFORMED, Results.<ZoneAd>fails(sdk, l -> sdk.fetchZoneAd("5", l), "zone 5").errorCode());
            assertEquals(ErrorCode.IMAGE_INVALID_URL, Results.<Image>fails(sdk, l -> sdk.fetchImage("ftp://example.com/a.png", l), "ftp").errorCode());
            sdk.setGdpr(true, "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA");
            sdk.setGdpr(null, null);
            sdk.setUsPrivacy("1YNN");
            assertThrows(BlinkEngageException.class, () -> sdk.setUsPrivacy("yes"));
            sdk.setGpp("DBABMA~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA", "2");
            sdk.setChildDirected(false);
            sdk.setLimitTracking(false);
            try (MomentsRequest request = checkout()) {
                sdk.prefetchMomentsOffers(request);
                Results.<MomentsResponse>ok(sdk, l -> sdk.fetchMomentsOffers(request, l), "a prefetched fetch").close();
            }
            sdk.flush(30000);
            Stats stats = sdk.stats();
            assertTrue(stats.requestsSent() >= 4);
            assertEquals(1, stats.eventsDelivered());
            assertEquals(1, stats.prefetchHits());
            sdk.setUserIdentity("java-storage");
        }
        StorageInfo info = BlinkEngage.inspectStorage(sandbox.storage.toString(), "demo-key");
        assertTrue(info.databaseBytes() > 0 && info.imageCacheFiles() >= 1 && info.hasIdentity());
        try (Config config = sandbox.config(); Sdk sdk = BlinkEngage.start(config)) {
            sdk.clearUserIdentity();
            sdk.deleteUserData();
        }
        assertFalse(BlinkEngage.inspectStorage(sandbox.storage.toString(), "demo-key").hasIdentity());
        assertNoReferencesLeft();
    }

    @Test public void configurationRefusalsCarryTheLibrarysMessage() {
        try (Config config = new Config("demo-key")) {
            BlinkEngageException refused = assertThrows(BlinkEngageException.class, () -> config.momentsUrl("file:///etc/passwd"));
            assertEquals(Status.INVALID_ARGUMENT, refused.status());
            assertFalse(refused.getMessage().isEmpty());
            assertThrows(BlinkEngageException.class, () -> config.timeoutMs(0));
            assertThrows(BlinkEngageException.class, () -> config.timeoutMs(-1));
            assertThrows(BlinkEngageException.class, () -> config.timeoutMs(1L << 33));
            assertThrows(BlinkEngageException.class, () -> config.proxy("ftp://127.0.0.1:21"));
            assertEquals(Status.NOT_FOUND, assertThrows(BlinkEngageException.class, () -> config.caFile("/nonexistent/ca.pem")).status());
            assertThrows(BlinkEngageException.class, () -> config.pinnedPublicKey("sha256//short="));
            config.proxy("socks5h://127.0.0.1:1080").proxy(null).caFile(null).pinnedPublicKey(null).userAgent("app/1.0")
                  .timeoutMs(5000).development(false).outboxLimits(100, 3600).feedCache(600).prefetchTtlSeconds(60)
                  .imageCache(1 << 20, 1 << 22).fetchIo(FetchIo.DISPATCH);
        }
        try (Config config = new Config("k").callbackMode(CallbackMode.SDK_THREAD).fetchIo(FetchIo.DISPATCH)) {
            assertEquals(Status.INVALID_ARGUMENT, assertThrows(BlinkEngageException.class, () -> BlinkEngage.start(config)).status());
        }
    }

    @Test public void badInputFromJavaIsAJavaException() {
        assertThrows(NullPointerException.class, () -> new Config(null));
        assertThrows(IllegalArgumentException.class, () -> new Config("key\0tail"));
        assertThrows(IllegalArgumentException.class, () -> new Config("\ud800"));
        assertThrows(NullPointerException.class, () -> BlinkEngage.start(null));
        try (Config config = new Config("k"); Sdk sdk = BlinkEngage.start(config); MomentsRequest request = new MomentsRequest()) {
            assertThrows(NullPointerException.class, () -> sdk.fetchMomentsOffers(null, (r, e) -> {}));
            assertThrows(NullPointerException.class, () -> sdk.fetchMomentsOffers(request, (Listener<MomentsResponse>) null));
            assertThrows(NullPointerException.class, () -> sdk.setUserIdentity(null));
            BlinkEngageException huge = assertThrows(BlinkEngageException.class, () -> sdk.setUserIdentity("u".repeat(5000)));
            assertFalse(huge.getMessage().isEmpty());
            assertThrows(BlinkEngageException.class, () -> sdk.setUserIdentity(""));
            request.payload("big", "x".repeat(8 << 20));
            assertThrows(IllegalArgumentException.class, () -> request.payload("k\0", "v"));
        }
        assertNoReferencesLeft();
    }

    @Test public void nothingIsUsableAfterClose() {
        Config config = sandbox.config();
        Sdk sdk = BlinkEngage.start(config);
        config.close();
        assertThrows(IllegalStateException.class, () -> config.timeoutMs(10));
        MomentsRequest request = checkout();
        MomentsResponse response = ok(sdk, l -> sdk.fetchMomentsOffers(request, l), "fetch");
        Offer offer = response.offers().get(0);
        sdk.close();
        sdk.close();
        assertThrows(IllegalStateException.class, sdk::dispatch);
        assertThrows(IllegalStateException.class, () -> sdk.fetchMomentsOffers(request, (r, e) -> {}));
        assertEquals("advertiser field while the response is open", "Streamly", offer.field("advertiser_name"));
        response.close();
        assertEquals("values outlive their response", "4001", offer.id());
        assertThrows(IllegalStateException.class, () -> offer.field("advertiser_name"));
        assertThrows(IllegalStateException.class, () -> response.style("header.text"));
        request.close();
        assertThrows(IllegalStateException.class, () -> request.campaignId("1"));
        assertNoReferencesLeft();
    }

    @Test public void closeRunsOwedCallbacksOnTheClosingThread() throws Exception {
        sandbox.post("/_sandbox/faults", "{\"path\": \"offers.json\", \"gate\": true}");
        Config config = sandbox.config();
        Sdk sdk = BlinkEngage.start(config);
        config.close();
        List<Results.Result<MomentsResponse>> results = new ArrayList<>();
        List<CompletableFuture<MomentsResponse>> futures = new ArrayList<>();
        try (MomentsRequest request = checkout()) {
            for (int i = 0; i < 3; i++) {
                Results.Result<MomentsResponse> result = new Results.Result<>();
                results.add(result);
                sdk.fetchMomentsOffers(request, result);
                futures.add(sdk.fetchMomentsOffers(request));
            }
        }
        assertEquals(globalsBefore + 6, BlinkEngage.globalReferences());
        sdk.close();
        for (Results.Result<MomentsResponse> result : results) {
            assertTrue(result.done && result.error.isCancelled());
            assertEquals(Thread.currentThread(), result.thread);
        }
        for (CompletableFuture<MomentsResponse> future : futures) {
            assertTrue(((ServiceException) future.handle((r, e) -> e).get()).isCancelled());
        }
        assertNoReferencesLeft();
        sandbox.post("/_sandbox/release", "{}");
    }

    @Test public void closeInsideACallbackShutsDownAfterIt() throws Exception {
        try (Config config = sandbox.config(); MomentsRequest request = checkout()) {
            Sdk sdk = BlinkEngage.start(config);
            AtomicInteger ran = new AtomicInteger();
            sdk.fetchMomentsOffers(request, (response, error) -> {
                ran.incrementAndGet();
                sdk.close();
                assertEquals(3, response.offers().size());
                response.close();
            });
            until(sdk, () -> ran.get() == 1, "the callback");
            assertThrows(IllegalStateException.class, sdk::dispatch);
            assertNoReferencesLeft();

            try (Config threaded = sandbox.config().callbackMode(CallbackMode.SDK_THREAD)) {
                Sdk other = BlinkEngage.start(threaded);
                CountDownLatch done = new CountDownLatch(1);
                AtomicReference<Thread> on = new AtomicReference<>();
                other.fetchMomentsOffers(request, (response, error) -> {
                    on.set(Thread.currentThread());
                    other.close();
                    response.close();
                    done.countDown();
                });
                assertTrue(done.await(30, TimeUnit.SECONDS));
                assertTrue("an SDK thread, attached as a daemon", on.get() != Thread.currentThread() && on.get().isDaemon());
                assertEquals("Java sees the SDK's thread by its own name", "be-callbacks", on.get().getName());
                long deadline = System.nanoTime() + 30_000_000_000L;
                while (BlinkEngage.globalReferences() != globalsBefore && System.nanoTime() < deadline) Thread.onSpinWait();
                assertNoReferencesLeft();
            }
        }
    }

    @Test public void whatAListenerThrowsIsCaughtNotLeftPending() {
        List<Throwable> caught = Collections.synchronizedList(new ArrayList<>());
        BlinkEngage.setUncaughtHandler(caught::add);
        try (Config config = sandbox.config(); Sdk sdk = BlinkEngage.start(config); MomentsRequest request = checkout()) {
            AtomicInteger ran = new AtomicInteger();
            sdk.fetchMomentsOffers(request, (response, error) -> {
                ran.incrementAndGet();
                response.close();
                throw new IllegalStateException("host bug");
            });
            until(sdk, () -> ran.get() == 1, "the throwing listener");
            assertEquals(1, caught.size());
            assertEquals("host bug", caught.get(0).getMessage());
            Results.<MomentsResponse>ok(sdk, l -> sdk.fetchMomentsOffers(request, l), "the SDK still works").close();
        } finally {
            BlinkEngage.setUncaughtHandler(Throwable::printStackTrace);
        }
        assertNoReferencesLeft();
    }

    @Test public void aHostTransportAsAnInterface() throws Exception {
        SandboxTransport transport = new SandboxTransport();
        AtomicInteger logged = new AtomicInteger();
        List<Throwable> caught = Collections.synchronizedList(new ArrayList<>());
        BlinkEngage.setUncaughtHandler(caught::add);
        try (Config config = sandbox.config().httpTransport(transport).logHandler((level, message) -> logged.incrementAndGet(), LogLevel.DEBUG);
             Sdk sdk = BlinkEngage.start(config); MomentsRequest request = checkout()) {
            try (MomentsResponse response = ok(sdk, l -> sdk.fetchMomentsOffers(request, l), "through the transport")) {
                assertEquals(3, response.offers().size());
            }
            assertTrue(transport.sent.get() >= 1);
            assertTrue(logged.get() > 0);

            transport.fail = true;
            assertEquals(ErrorCode.MOMENTS_NETWORK, Results.<MomentsResponse>fails(sdk, l -> sdk.fetchMomentsOffers(request, l), "a throwing transport").errorCode());
            assertEquals(1, caught.size());
            transport.fail = false;

            transport.hold = true;
            Results.Result<MomentsResponse> held = new Results.Result<>();
            sdk.fetchMomentsOffers(request, held);
            assertTrue(transport.arrived.await(30, TimeUnit.SECONDS));
            HttpRequest open = transport.held;
            List<String> lines = IntStream.range(0, 1001).mapToObj(i -> "X-" + i + ": v").collect(Collectors.toList());
            assertFalse(assertThrows(BlinkEngageException.class, () -> open.complete(200, lines, new byte[0])).getMessage().isEmpty());
            open.complete(200, List.of("Content-Type: application/json"), "{\"data\": {\"offers\": [], \"count\": 0}}".getBytes(StandardCharsets.UTF_8));
            assertThrows(IllegalStateException.class, () -> open.fail("again"));
            until(sdk, () -> held.done, "the completed request");
            assertEquals(ErrorCode.MOMENTS_NO_OFFERS, held.error.errorCode());
        } finally {
            BlinkEngage.setUncaughtHandler(Throwable::printStackTrace);
        }
        assertNoReferencesLeft();
    }

    /** Forwards each request to the sandbox from a thread of its own, or holds it for the test, or throws. */
    private final class SandboxTransport implements HttpTransport {
        final AtomicInteger sent = new AtomicInteger();
        final CountDownLatch arrived = new CountDownLatch(1);
        volatile boolean fail, hold;
        volatile HttpRequest held;
        private final java.net.http.HttpClient client = java.net.http.HttpClient.newHttpClient();

        @Override public void send(HttpRequest request) {
            if (fail) throw new IllegalStateException("no network");
            if (hold) {
                hold = false;
                held = request;
                arrived.countDown();
                return;
            }
            sent.incrementAndGet();
            java.net.http.HttpRequest.Builder builder = java.net.http.HttpRequest.newBuilder(java.net.URI.create(request.url()))
                    .method(request.method(), java.net.http.HttpRequest.BodyPublishers.ofByteArray(request.body()));
            for (var header : request.headers()) {
                String name = header.getKey();
                if (!List.of("content-length", "connection", "host", "accept-encoding").contains(name.toLowerCase())) builder.header(name, header.getValue());
            }
            client.sendAsync(builder.build(), java.net.http.HttpResponse.BodyHandlers.ofByteArray()).whenComplete((answer, error) -> {
                if (error != null) {
                    request.fail(error.toString());
                    return;
                }
                List<String> lines = new ArrayList<>();
                answer.headers().map().forEach((name, values) -> values.forEach(v -> lines.add(name + ": " + v)));
                request.complete(answer.statusCode(), lines, answer.body());
            });
        }
    }
}
