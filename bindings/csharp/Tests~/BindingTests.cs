// The binding against the sandbox: every path of the API, its errors, its threads and its lifecycle edges.
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text;
using System.Threading;
using System.Threading.Tasks;
using BlinkEngage;

static class BindingTests
{
    static int MainThread { get { return Thread.CurrentThread.ManagedThreadId; } }

    static T Ok<T>(BlinkEngageSDK sdk, Action<Action<T, ServiceException>> start, string what) where T : class
    {
        var result = Wait.For(sdk, start, what);
        Assert.True(result.Error == null, what + ": " + result.Error);
        Assert.True(result.Value != null, what + ": a result");
        Assert.Equal(MainThread, result.Thread, what + ": the callback ran on the dispatching thread");
        return result.Value;
    }

    static ServiceException Fails<T>(BlinkEngageSDK sdk, Action<Action<T, ServiceException>> start, string what) where T : class
    {
        var result = Wait.For(sdk, start, what);
        Assert.True(result.Value == null && result.Error != null, what + ": an error and no result");
        Assert.Equal(MainThread, result.Thread, what + ": the callback ran on the dispatching thread");
        return result.Error;
    }

    static MomentsRequest Checkout() { return new MomentsRequest().SetPayload("placement", "checkout"); }

    [Test]
    static void TheVersionIsTheHeaders()
    {
        Assert.Equal(Native.BE_VERSION_MAJOR + "." + Native.BE_VERSION_MINOR + "." + Native.BE_VERSION_PATCH,
                     BlinkEngageSDK.Version, "be_version");
    }

    [Test]
    static void MomentsOffersWithEveryField()
    {
        using (var sandbox = new Sandbox())
        using (var config = sandbox.Config())
        using (var sdk = BlinkEngageSDK.Start(config))
        using (var request = Checkout())
        using (var response = Ok<MomentsResponse>(sdk, done => sdk.FetchMomentsOffers(request, done), "fetch"))
        {
            Assert.Equal("4001,4002,4003", string.Join(",", response.Offers.Select(o => o.Id)), "offer ids");
            var offer = response.Offers[0];
            Assert.True(!string.IsNullOrEmpty(offer.Title) && !string.IsNullOrEmpty(offer.Description), "title and description");
            Assert.True(offer.ClickUrl.StartsWith("https://"), "click URL: " + offer.ClickUrl);
            Assert.True(offer.PixelUrl.EndsWith("/b/track/sdk/v2/impression/p.png?o_id=4001&sess_id=5f2c0001e1&cbuster=%7Bcbuster%7D"), "pixel: " + offer.PixelUrl);
            Assert.True(offer.AdvertiserPixelUrl.EndsWith("/b/adv/imp?o=4001&cb={cbuster}"), "advertiser pixel: " + offer.AdvertiserPixelUrl);
            Assert.True(offer.CloseBeaconUrl.EndsWith("/b/track/event/record/close?o_id=4001&sess_id=5f2c0001e1"), "close: " + offer.CloseBeaconUrl);
            Assert.True(offer.NoThanksBeaconUrl.EndsWith("/b/track/event/record/no_thanks_click?o_id=4001&sess_id=5f2c0001e1"), "no thanks: " + offer.NoThanksBeaconUrl);
            Assert.True(offer.CtaYes != null && offer.CtaNo != null, "calls to action");
            Assert.Equal("Streamly", offer.Field("advertiser_name"), "a field by name");
            Assert.True(offer.Json.Contains("\"campaign_id\": 1201") || offer.Json.Contains("\"campaign_id\":1201"), "the offer's JSON");
            Assert.Equal("#1A73E8", response.Style("offerText.buttonYes.background"), "a style");
            Assert.True(offer.Creatives.Count > 0, "creatives");
            var creative = offer.Creatives[0];
            Assert.True(creative.Url.StartsWith("http") && creative.Width > 0 && creative.Height > 0, "a creative");
            Assert.True(offer.Creatives.Any(c => c.IsPrimary), "a primary creative");
            Assert.True(offer.ImageUrl != null && offer.TermsHtml != null, "image and terms");
            Assert.True(response.PrivacyUrl == null || response.PrivacyUrl.StartsWith("http"), "privacy URL");
        }
    }

    [Test]
    static void AsyncFetchesCompleteOnTheDispatchingThread()
    {
        using (var sandbox = new Sandbox())
        using (var config = sandbox.Config())
        using (var sdk = BlinkEngageSDK.Start(config))
        using (var request = Checkout())
        {
            var completedOn = -1;
            var task = sdk.FetchMomentsOffersAsync(request);
            task.ContinueWith(t => completedOn = Thread.CurrentThread.ManagedThreadId,
                                             TaskContinuationOptions.ExecuteSynchronously);
            Wait.Until(sdk, () => task.IsCompleted, "the task");
            Assert.Equal(MainThread, completedOn, "the task completed on the dispatching thread");
            using (var response = task.Result) Assert.Equal(3, response.Offers.Count, "offers");

            var feedTask = sdk.LoadOfferFeedAsync();
            Wait.Until(sdk, () => feedTask.IsCompleted, "the feed task");
            var error = (ServiceException)feedTask.Exception.InnerException;
            Assert.Equal(ErrorDomains.OfferFeed, error.Domain, "feed error domain");
            Assert.Equal(ErrorDomains.OfferFeedNoUser, error.Code, "no user");

            var adTask = sdk.FetchZoneAdAsync("1");
            Wait.Until(sdk, () => adTask.IsCompleted, "the zone ad task");
            using (var ad = adTask.Result) Assert.True(ad.IsEnabled, "zone 1 shows an ad");
            var imageTask = sdk.FetchImageAsync(sandbox.Url + "/cdn/a.png");
            Wait.Until(sdk, () => imageTask.IsCompleted, "the image task");
            using (var image = imageTask.Result) Assert.Equal("image/png", image.ContentType, "image type");
        }
    }

    [Test]
    static void MomentsParametersAreValidatedBeforeAnyRequest()
    {
        using (var request = new MomentsRequest())
        {
            var refused = Assert.Throws<BlinkEngageException>(() => request.SetLoyaltyBoost("7"), "loyaltyboost 7");
            Assert.Equal(Status.InvalidArgument, refused.Status, "status");
            Assert.True(refused.Message.Length > 0, "the library's message");
            Assert.Throws<BlinkEngageException>(() => request.SetCreative("2"), "creative 2");
            request.SetLoyaltyBoost("2").SetCreative("1").SetCampaignId("1201").SetDevelopment(true);
        }
    }

    [Test]
    static void EachMomentsFailureHasItsCode()
    {
        using (var sandbox = new Sandbox())
        using (var config = sandbox.Config())
        using (var sdk = BlinkEngageSDK.Start(config))
        {
            using (var none = Checkout().SetCampaignId("999"))
            {
                var error = Fails<MomentsResponse>(sdk, done => sdk.FetchMomentsOffers(none, done), "no offers");
                Assert.Equal(ErrorDomains.Moments, error.Domain, "domain");
                Assert.Equal(ErrorDomains.MomentsNoOffers, error.Code, "no offers");
            }
            sandbox.Post("/_sandbox/faults", "{\"path\": \"offers.json\", \"status\": 503, \"times\": 1}");
            using (var request = Checkout())
            {
                var error = Fails<MomentsResponse>(sdk, done => sdk.FetchMomentsOffers(request, done), "503");
                Assert.Equal(ErrorDomains.MomentsHttpStatus, error.Code, "HTTP status");
                Assert.Equal(503, error.HttpStatus, "the status behind it");
                sandbox.Post("/_sandbox/faults", "{\"path\": \"offers.json\", \"malformed\": true, \"times\": 1}");
                error = Fails<MomentsResponse>(sdk, done => sdk.FetchMomentsOffers(request, done), "malformed");
                Assert.Equal(ErrorDomains.MomentsDecoding, error.Code, "decoding");
            }
        }
        using (var config = new Config("").SetMomentsUrl("http://127.0.0.1:9/native/v4"))
        using (var sdk = BlinkEngageSDK.Start(config))
        using (var request = Checkout())
        {
            var error = Fails<MomentsResponse>(sdk, done => sdk.FetchMomentsOffers(request, done), "no API key");
            Assert.Equal(ErrorDomains.MomentsInvalidParameter, error.Code, "invalid parameter");
        }
        using (var config = new Config("demo-key").SetMomentsUrl("http://127.0.0.1:" + Ports.Unused() + "/native/v4"))
        using (var sdk = BlinkEngageSDK.Start(config))
        using (var request = Checkout())
        {
            var error = Fails<MomentsResponse>(sdk, done => sdk.FetchMomentsOffers(request, done), "nothing listening");
            Assert.Equal(ErrorDomains.MomentsNetwork, error.Code, "network");
        }
    }

    [Test]
    static void TheFeedItsScreensAndEvents()
    {
        using (var sandbox = new Sandbox())
        using (var config = sandbox.Config())
        using (var sdk = BlinkEngageSDK.Start(config))
        {
            var noUser = Fails<OfferFeed>(sdk, sdk.LoadOfferFeed, "feed without a user");
            Assert.Equal(ErrorDomains.OfferFeedNoUser, noUser.Code, "error 1");
            sdk.SetUserIdentity("csharp-user");
            using (var feed = Ok<OfferFeed>(sdk, sdk.LoadOfferFeed, "feed"))
            {
                Assert.Equal("g_entertainment,g_food", string.Join(",", feed.Groups.Select(g => g.Id)), "groups");
                Assert.True(feed.Id != null && !feed.IsCached, "a fresh feed with an id");
                var group = feed.Groups[0];
                Assert.True(group.Title.Length > 0, "group title");
                using (var screen = sdk.OfferGroupScreen(group))
                {
                    Assert.True(screen != null, "a group screen");
                    Assert.Equal(2, screen.OfferCount, "offers on the screen");
                    Assert.True(screen.HasNext && !screen.HasPrevious, "navigation");
                    Assert.True(screen.Accept().StartsWith("https://track.example.com/sdk/offer_click?o_id=4001"), "accept's URL");
                    Assert.Equal("4003", screen.CurrentOffer.Id, "accept moves on");
                }
                using (var wall = sdk.OfferWall())  // the SDK records the wall's events itself
                {
                    Assert.True(wall != null && wall.HasFeed && wall.Level == OfferWallLevel.Wall, "a wall at its wall level");
                    wall.OpenGroup(0);
                    Assert.Equal("g_entertainment", wall.CurrentGroupId, "the group opened");
                    wall.OpenOffer(0, 1);
                    Assert.Equal("4003", wall.CurrentOffer.Id, "the offer opened");
                    wall.Decline();
                    Assert.True(wall.Level == OfferWallLevel.Group, "decline goes back");
                    Assert.Throws<BlinkEngageException>(() => wall.OpenGroup(1), "a group opens from the wall only");
                    wall.Close();
                    Assert.True(wall.Level == OfferWallLevel.Closed, "closed");
                }
                using (var viewAll = new OfferFeedEvent(group, OfferFeedEventType.ViewAll))
                    sdk.ReportOfferFeedEvent(viewAll);
                using (var appear = new OfferFeedEvent(feed.Groups[1].Offers[0], OfferFeedEventType.DidAppear))
                    sdk.ReportOfferFeedEvent(appear);
                Assert.Throws<BlinkEngageException>(() => new OfferFeedEvent(group, OfferFeedEventType.DidTap), "a tap on a group");
                sdk.Flush(30000);
                var events = sandbox.Get("/_sandbox/events");
                Assert.True(events.Contains("\"distinct\": 4"), "the wall's view_all and did_tap, and two events: " + events);
                Assert.True(events.Contains("\"group_position\": 0") && events.Contains("\"group_position\": 1"), "positions");
                Assert.Equal(4UL, sdk.GetStats().EventsDelivered, "events delivered");

                using (var newer = Ok<OfferFeed>(sdk, sdk.LoadOfferFeed, "a newer feed"))
                {
                    Assert.True(sdk.OfferDetailsScreen(feed.Groups[1].Offers[0]) == null, "an offer of an older load has no screen");
                    using (var screen = sdk.OfferDetailsScreen(newer.Groups[1].Offers[0]))
                        Assert.True(screen != null, "an offer of the newest load has one");
                }
            }
            sandbox.Post("/_sandbox/feed", "{\"mode\": \"disabled\"}");
            var off = Fails<OfferFeed>(sdk, sdk.LoadOfferFeed, "a disabled feed");
            Assert.Equal(ErrorDomains.OfferFeedUnavailable, off.Code, "error 2");
        }
    }

    [Test]
    static void ConcurrentFeedLoadsShareOneRequest()
    {
        using (var sandbox = new Sandbox())
        using (var config = sandbox.Config())
        using (var sdk = BlinkEngageSDK.Start(config))
        {
            sdk.SetUserIdentity("csharp-shared");
            sandbox.Post("/_sandbox/faults", "{\"path\": \"/v1/offer-feed\", \"gate\": true, \"times\": 1}");
            var feeds = new List<OfferFeed>();
            var threads = Enumerable.Range(0, 32).Select(_ => new Thread(() => sdk.LoadOfferFeed((feed, error) =>
            {
                Assert.True(error == null, "shared load: " + error);
                feeds.Add(feed);
            }))).ToList();
            threads.ForEach(t => t.Start());
            threads.ForEach(t => t.Join());
            sandbox.Post("/_sandbox/release");
            Wait.Until(sdk, () => feeds.Count == 32, "32 loads");
            Assert.Equal(1, sandbox.Requests("/v1/offer-feed"), "feed requests");
            Assert.Equal(1, feeds.Select(f => f.Id).Distinct().Count(), "one feed for all");
            feeds.ForEach(f => f.Dispose());
        }
    }

    [Test]
    static void TheMomentsUnitWithItsBeacons()
    {
        using (var sandbox = new Sandbox())
        using (var config = sandbox.Config())
        using (var sdk = BlinkEngageSDK.Start(config))
        using (var request = Checkout())
        using (var response = Ok<MomentsResponse>(sdk, done => sdk.FetchMomentsOffers(request, done), "fetch"))
        using (var screen = sdk.MomentsScreen(response))
        {
            Assert.Equal("Thanks for your order", screen.Style("header.text"), "a screen style");
            Assert.Equal(0, screen.Index, "first offer");
            screen.ShowNext();
            Assert.Equal("4002", screen.CurrentOffer.Id, "next");
            screen.ShowPrevious();
            Assert.Equal("4001", screen.CurrentOffer.Id, "previous");
            screen.Decline();
            Assert.Equal("4002", screen.CurrentOffer.Id, "declined moves on");
            screen.Close();
            Assert.True(screen.IsFinished && screen.CurrentOffer == null, "closed");
            var refused = Assert.Throws<BlinkEngageException>(screen.ShowNext, "navigation after close");
            Assert.Equal(Status.InvalidState, refused.Status, "status");
            sdk.Flush(30000);
            Assert.True(sdk.GetStats().BeaconsDelivered > 0, "beacons delivered");
        }
    }

    [Test]
    static void ZoneAdsImagesPrivacyStatsAndStorage()
    {
        using (var sandbox = new Sandbox())
        {
            using (var config = sandbox.Config())
            using (var sdk = BlinkEngageSDK.Start(config))
            {
                using (var ad = Ok<ZoneAd>(sdk, done => sdk.FetchZoneAd("1", done), "zone 1"))
                {
                    Assert.Equal("https://www.example.com/landing?zone=1", ad.LinkUrl, "link");
                    Assert.Equal(sandbox.Url + "/cdn/zones/1/banner.png", ad.ImageUrl, "image");
                    sdk.ReportZoneAdClick(ad);
                    using (var image = Ok<Image>(sdk, done => sdk.FetchImage(ad.ImageUrl, done), "its image"))
                    {
                        var data = image.Data;
                        Assert.Equal(image.Size, data.Length, "size");
                        Assert.True(data.Length > 8 && data[1] == (byte)'P' && data[2] == (byte)'N' && data[3] == (byte)'G', "PNG bytes");
                        Assert.True(!image.IsFromCache, "first from the network");
                    }
                    using (var again = Ok<Image>(sdk, done => sdk.FetchImage(ad.ImageUrl, done), "again"))
                        Assert.True(again.IsFromCache, "then from the cache");
                }
                using (var hidden = Ok<ZoneAd>(sdk, done => sdk.FetchZoneAd("2", done), "zone 2"))
                    Assert.True(!hidden.IsEnabled, "zone 2 is hidden");
                var malformed = Fails<ZoneAd>(sdk, done => sdk.FetchZoneAd("5", done), "zone 5");
                Assert.Equal(ErrorDomains.ZoneAd, malformed.Domain, "zone ad domain");
                Assert.Equal(ErrorDomains.ZoneAdMalformed, malformed.Code, "malformed");
                var badUrl = Fails<Image>(sdk, done => sdk.FetchImage("ftp://example.com/a.png", done), "an ftp image");
                Assert.Equal(ErrorDomains.ImageInvalidUrl, badUrl.Code, "invalid URL");

                sdk.SetGdpr(true, "CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA");
                sdk.SetGdpr(null, null);
                sdk.SetUsPrivacy("1YNN");
                Assert.Throws<BlinkEngageException>(() => sdk.SetUsPrivacy("yes"), "a bad US privacy string");
                sdk.SetGpp("DBABMA~CPXxRfAPXxRfAAfKABENB-CgAAAAAAAAAAYgAAAAAAAA", "2");
                sdk.SetChildDirected(false);
                sdk.SetLimitTracking(false);
                using (var request = Checkout())
                {
                    sdk.PrefetchMomentsOffers(request);
                    using (Ok<MomentsResponse>(sdk, done => sdk.FetchMomentsOffers(request, done), "a prefetched fetch")) { }
                }
                sdk.Flush(30000);
                var stats = sdk.GetStats();
                Assert.True(stats.RequestsSent >= 4 && stats.EventsDelivered == 1, "stats");
                Assert.True(stats.ImageMemoryHits + stats.ImageDiskHits + stats.ImageRevalidations >= 1, "an image cache hit");
                sdk.SetUserIdentity("csharp-storage");
            }
            var info = BlinkEngageSDK.InspectStorage(sandbox.StorageDir, "demo-key");
            Assert.True(info.DatabaseBytes > 0 && info.ImageCacheFiles >= 1 && info.HasIdentity, "storage");
            using (var config = sandbox.Config())
            using (var sdk = BlinkEngageSDK.Start(config))
                sdk.DeleteUserData();
            Assert.True(!BlinkEngageSDK.InspectStorage(sandbox.StorageDir, "demo-key").HasIdentity, "erased");
        }
    }

    [Test]
    static void ConfigurationRefusalsCarryTheLibrarysMessage()
    {
        using (var config = new Config("demo-key"))
        {
            var refused = Assert.Throws<BlinkEngageException>(() => config.SetMomentsUrl("file:///etc/passwd"), "a file URL");
            Assert.True(refused.Message.Length > 0 && refused.Status == Status.InvalidArgument, refused.Message);
            Assert.Throws<BlinkEngageException>(() => config.SetTimeoutMs(0), "a zero timeout");
            Assert.Throws<BlinkEngageException>(() => config.SetProxy("ftp://127.0.0.1:21"), "an ftp proxy");
            Assert.Equal(Status.NotFound, Assert.Throws<BlinkEngageException>(() => config.SetCaFile("/nonexistent/ca.pem"), "no CA file").Status, "status");
            Assert.Throws<BlinkEngageException>(() => config.SetPinnedPublicKey("sha256//short="), "a short pin");
            config.SetProxy("socks5h://127.0.0.1:1080").SetProxy(null).SetCaFile(null).SetPinnedPublicKey(null)
                  .SetUserAgent("game/1.0").SetTimeoutMs(5000).SetDevelopment(false).SetOutboxLimits(100, 3600)
                  .SetFeedCache(600).SetPrefetchTtlSeconds(60).SetImageCache(1 << 20, 1 << 22).SetFetchIo(FetchIo.Dispatch);
        }
        var io = Assert.Throws<BlinkEngageException>(() =>
        {
            using (var config = new Config("k").SetCallbackMode(CallbackMode.SdkThread).SetFetchIo(FetchIo.Dispatch))
                BlinkEngageSDK.Start(config).Dispose();
        }, "fetch I/O on dispatch without dispatch mode");
        Assert.Equal(Status.InvalidArgument, io.Status, "status");
    }

    [Test]
    static void BadInputFromManagedCodeIsAManagedException()
    {
        Assert.Throws<ArgumentNullException>(() => new Config(null), "a null key");
        Assert.Throws<ArgumentException>(() => new Config("key\0tail"), "a NUL inside");
        Assert.Throws<ArgumentException>(() => new Config("\ud800"), "a lone surrogate");
        Assert.Throws<ArgumentNullException>(() => BlinkEngageSDK.Start(null), "a null config");
        using (var config = new Config("k"))
        using (var sdk = BlinkEngageSDK.Start(config))
        using (var request = new MomentsRequest())
        {
            Assert.Throws<ArgumentNullException>(() => sdk.FetchMomentsOffers(null, (r, e) => { }), "a null request");
            Assert.Throws<ArgumentNullException>(() => sdk.FetchMomentsOffers(request, null), "a null completion");
            Assert.Throws<ArgumentNullException>(() => sdk.SetUserIdentity(null), "a null identity");
            var huge = new string('u', 5000);
            var refused = Assert.Throws<BlinkEngageException>(() => sdk.SetUserIdentity(huge), "a 5,000-byte identity");
            Assert.True(refused.Message.Length > 0, "the library says why: " + refused.Message);
            Assert.Throws<BlinkEngageException>(() => sdk.SetUserIdentity(""), "an empty identity");
            var big = new string('x', 8 << 20);
            request.SetPayload("big", big);  // accepted: the request's limits apply when it is sent
            Assert.Throws<ArgumentException>(() => request.SetPayload("k\0", "v"), "a NUL in a key");
            Assert.Equal(0, BlinkEngageSDK.OutstandingCallbackHandles, "a refused call holds no handle");
        }
    }

    [Test]
    static void NothingIsUsableAfterDispose()
    {
        using (var sandbox = new Sandbox())
        {
            var config = sandbox.Config();
            var sdk = BlinkEngageSDK.Start(config);
            config.Dispose();
            Assert.Throws<ObjectDisposedException>(() => config.SetTimeoutMs(10), "a disposed config");
            var request = Checkout();
            var response = Ok<MomentsResponse>(sdk, done => sdk.FetchMomentsOffers(request, done), "fetch");
            var offer = response.Offers[0];
            sdk.Dispose();
            sdk.Dispose();
            Assert.Throws<ObjectDisposedException>(() => sdk.Dispatch(), "dispatch");
            Assert.Throws<ObjectDisposedException>(() => sdk.FetchMomentsOffers(request, (r, e) => { }), "fetch");
            Assert.Equal("4001", offer.Id, "an offer outlives its SDK");
            response.Dispose();
            Assert.Throws<ObjectDisposedException>(() => { var id = offer.Id; }, "an offer of a disposed response");
            Assert.Throws<ObjectDisposedException>(() => { var n = response.Offers.Count; }, "a disposed response");
            request.Dispose();
            Assert.Throws<ObjectDisposedException>(() => request.SetCampaignId("1"), "a disposed request");
            Assert.Equal(0, BlinkEngageSDK.OutstandingCallbackHandles, "no handle left");
        }
    }

    [Test]
    static void DisposeRunsOwedCallbacksOnTheDisposingThread()
    {
        using (var sandbox = new Sandbox())
        {
            sandbox.Post("/_sandbox/faults", "{\"path\": \"offers.json\", \"gate\": true}");
            var config = sandbox.Config();
            var sdk = BlinkEngageSDK.Start(config);
            config.Dispose();
            var results = new List<Wait.Result<MomentsResponse>>();
            var tasks = new List<Task<MomentsResponse>>();
            using (var request = Checkout())
            {
                for (var i = 0; i < 3; i++)
                {
                    var result = new Wait.Result<MomentsResponse>();
                    results.Add(result);
                    sdk.FetchMomentsOffers(request, result.Set);
                    tasks.Add(sdk.FetchMomentsOffersAsync(request));
                }
            }
            Assert.Equal(6, BlinkEngageSDK.OutstandingCallbackHandles, "one handle per owed callback");
            sdk.Dispose();
            foreach (var result in results)
            {
                Assert.True(result.Done && result.Error != null && result.Error.IsCancelled, "cancelled by shutdown");
                Assert.Equal(MainThread, result.Thread, "on the disposing thread");
            }
            Assert.True(tasks.All(t => t.IsFaulted && ((ServiceException)t.Exception.InnerException).IsCancelled), "tasks fail cancelled");
            Assert.Equal(0, BlinkEngageSDK.OutstandingCallbackHandles, "every handle freed once");
            sandbox.Post("/_sandbox/release");
        }
    }

    [Test]
    static void DisposeInsideACallbackShutsDownAfterIt()
    {
        using (var sandbox = new Sandbox())
        using (var config = sandbox.Config())
        using (var request = Checkout())
        {
            var sdk = BlinkEngageSDK.Start(config);
            var ran = 0;
            sdk.FetchMomentsOffers(request, (response, error) =>
            {
                ran++;
                sdk.Dispose();  // inside Dispatch: deferred until it returns
                Assert.Equal(3, response.Offers.Count, "the response is usable after");
                response.Dispose();
            });
            Wait.Until(sdk, () => ran == 1, "the callback");
            Assert.Throws<ObjectDisposedException>(() => sdk.Dispatch(), "the SDK is gone once Dispatch returned");
            Assert.Equal(0, BlinkEngageSDK.OutstandingCallbackHandles, "no handle left");

            // On the SDK's own thread: shut down on another thread, after the callback.
            using (var threaded = new Config("demo-key").SetMomentsUrl(sandbox.Url + "/native/v4").SetCallbackMode(CallbackMode.SdkThread))
            {
                var other = BlinkEngageSDK.Start(threaded);
                var done = new ManualResetEventSlim();
                other.FetchMomentsOffers(request, (response, error) =>
                {
                    other.Dispose();
                    response.Dispose();
                    done.Set();
                });
                Assert.True(done.Wait(30000), "the callback on the SDK's thread");
                var deadline = DateTime.UtcNow.AddSeconds(30);
                while (BlinkEngageSDK.OutstandingCallbackHandles != 0 && DateTime.UtcNow < deadline) Thread.Yield();
                Assert.Equal(0, BlinkEngageSDK.OutstandingCallbackHandles, "shut down after the callback");
            }
        }
    }

    [Test]
    static void ExceptionsInCallbacksGoToTheHandlerAndTheNextCallbackRuns()
    {
        var caught = new List<Exception>();
        Action<Exception> handler = e => caught.Add(e);
        BlinkEngageSDK.UnhandledCallbackException += handler;
        try
        {
            using (var sandbox = new Sandbox())
            using (var config = sandbox.Config())
            using (var sdk = BlinkEngageSDK.Start(config))
            using (var request = Checkout())
            {
                var ran = 0;
                for (var i = 0; i < 2; i++)
                {
                    sdk.FetchMomentsOffers(request, (response, error) =>
                    {
                        ran++;
                        response.Dispose();
                        throw new InvalidOperationException("host bug " + ran);
                    });
                }
                Wait.Until(sdk, () => ran == 2, "both throwing callbacks, without an exception out of Dispatch");
                Assert.Equal(2, caught.Count, "both exceptions handed to the handler");
                Assert.Equal("host bug 1", caught[0].Message, "the host's exception, as thrown");
                using (Ok<MomentsResponse>(sdk, done => sdk.FetchMomentsOffers(request, done), "the SDK still works")) { }
            }
        }
        finally { BlinkEngageSDK.UnhandledCallbackException -= handler; }
    }

    [Test]
    static void CancelledTasksEndAtOnceAndReleaseTheLateAnswer()
    {
        using (var sandbox = new Sandbox())
        using (var config = sandbox.Config())
        using (var sdk = BlinkEngageSDK.Start(config))
        using (var request = Checkout())
        {
            sandbox.Post("/_sandbox/faults", "{\"path\": \"offers.json\", \"gate\": true, \"times\": 1000}");
            var source = new CancellationTokenSource();
            var tasks = Enumerable.Range(0, 1000).Select(_ => sdk.FetchMomentsOffersAsync(request, source.Token)).ToList();
            source.Cancel();
            Assert.True(tasks.All(t => t.IsCanceled), "1,000 tasks cancelled at once");
            sandbox.Post("/_sandbox/release");
            Wait.Until(sdk, () => BlinkEngageSDK.OutstandingCallbackHandles == 0, "the late answers");
        }
    }

    [Test]
    static void AHostTransportAsAnInterface()
    {
        using (var sandbox = new Sandbox())
        {
            var transport = new SandboxTransport(sandbox.Port);
            var logged = 0;
            using (var config = sandbox.Config().SetHttpTransport(transport)
                                      .SetLogHandler((level, message) => Interlocked.Increment(ref logged), LogLevel.Debug))
            using (var sdk = BlinkEngageSDK.Start(config))
            using (var request = Checkout())
            {
                using (var response = Ok<MomentsResponse>(sdk, done => sdk.FetchMomentsOffers(request, done), "through the transport"))
                    Assert.Equal(3, response.Offers.Count, "offers");
                Assert.True(transport.Sent >= 1, "the transport sent it");
                Assert.True(Volatile.Read(ref logged) > 0, "the log handler heard the SDK");

                transport.Throw = true;
                var error = Fails<MomentsResponse>(sdk, done => sdk.FetchMomentsOffers(request, done), "a throwing transport");
                Assert.Equal(ErrorDomains.MomentsNetwork, error.Code, "a network error");
                transport.Throw = false;

                transport.Hold = true;
                var held = new Wait.Result<MomentsResponse>();
                sdk.FetchMomentsOffers(request, held.Set);
                Assert.True(transport.Arrived.Wait(30000), "the transport holds the request");
                var open = transport.Held;
                var lines = Enumerable.Range(0, 1001).Select(i => "X-" + i + ": v").ToList();
                var refused = Assert.Throws<BlinkEngageException>(() => open.Complete(200, lines, new byte[0]), "1,001 header lines");
                Assert.True(refused.Message.Contains("1000") || refused.Message.Length > 0, refused.Message);
                open.Complete(200, new[] { "Content-Type: application/json" }, SandboxTransport.NoOffers);
                Assert.Throws<InvalidOperationException>(() => open.Fail("again"), "a second answer");
                Wait.Until(sdk, () => held.Done, "the completed request");
                Assert.Equal(ErrorDomains.MomentsNoOffers, held.Error.Code, "the correct completion was taken");
            }
            Assert.Equal(0, BlinkEngageSDK.OutstandingCallbackHandles, "transport and log handler released");
        }
    }

    // 10,000 fetches through an in-memory transport: every GCHandle taken is given back, batch after batch.
    [Test]
    static void TenThousandFetchesHoldNoHandles()
    {
        using (var sandbox = new Sandbox())
        {
            var answer = Http.Exchange(sandbox.Port, "POST", "/native/v4/offers.json?api_key=demo-key", "{\"placement\": \"checkout\"}");
            var transport = new MemoryTransport(Encoding.UTF8.GetBytes(answer));
            using (var config = new Config("demo-key").SetHttpTransport(transport).SetMomentsUrl("http://127.0.0.1:9/native/v4"))
            using (var sdk = BlinkEngageSDK.Start(config))
            using (var request = Checkout())
            {
                var baseline = BlinkEngageSDK.OutstandingCallbackHandles;
                var counted = 0;
                for (var batch = 0; batch < 100; batch++)
                {
                    var target = counted + 100;
                    for (var i = 0; i < 100; i++)
                        sdk.FetchMomentsOffers(request, (response, error) =>
                        {
                            Assert.True(error == null, "fetch: " + error);
                            if (response.Offers[0].Id == "4001") counted++;
                            response.Dispose();
                        });
                    Wait.Until(sdk, () => counted == target, "a batch of 100");
                    Assert.Equal(baseline, BlinkEngageSDK.OutstandingCallbackHandles, "handles after batch " + batch);
                }
                Assert.Equal(10000, counted, "fetches");
                GC.Collect();
                GC.WaitForPendingFinalizers();
                Assert.Equal(baseline, BlinkEngageSDK.OutstandingCallbackHandles, "handles after 10,000");
            }
        }
    }
}

static class Ports
{
    public static int Unused()
    {
        var listener = new System.Net.Sockets.TcpListener(System.Net.IPAddress.Loopback, 0);
        listener.Start();
        var port = ((System.Net.IPEndPoint)listener.LocalEndpoint).Port;
        listener.Stop();
        return port;
    }
}

// Forwards each request to the sandbox on a thread of its own, or holds it for the test, or throws.
sealed class SandboxTransport : IHttpTransport
{
    public static readonly byte[] NoOffers = Encoding.UTF8.GetBytes("{\"data\": {\"offers\": [], \"count\": 0}}");
    readonly int port;
    int sent;
    public volatile bool Throw, Hold;
    public HttpRequest Held;
    public readonly ManualResetEventSlim Arrived = new ManualResetEventSlim();

    public SandboxTransport(int port) { this.port = port; }

    public int Sent { get { return Volatile.Read(ref sent); } }

    public void Send(HttpRequest request)
    {
        if (Throw) throw new IOException("no network");
        if (Hold)
        {
            Hold = false;
            Held = request;
            Arrived.Set();
            return;
        }
        Interlocked.Increment(ref sent);
        new Thread(() =>
        {
            var uri = new Uri(request.Url);
            var head = new StringBuilder(request.Method + " " + uri.PathAndQuery + " HTTP/1.0\r\n");
            foreach (var header in request.Headers)
                if (header.Key != "Content-Length" && header.Key != "Content-Type" && header.Key != "Connection")
                    head.Append(header.Key).Append(": ").Append(header.Value).Append("\r\n");
            var raw = Http.Send(port, head.ToString(), request.Body, "application/json");
            var text = Encoding.ASCII.GetString(raw);
            var split = text.IndexOf("\r\n\r\n", StringComparison.Ordinal);
            var lines = text.Substring(0, split).Split(new[] { "\r\n" }, StringSplitOptions.None);
            var status = int.Parse(lines[0].Split(' ')[1]);
            var body = new byte[raw.Length - split - 4];
            Array.Copy(raw, split + 4, body, 0, body.Length);
            request.Complete(status, lines.Skip(1).ToList(), body);
        }) { Name = "sandbox-transport" }.Start();
    }
}

// Answers every request at once, inside Send, with one body.
sealed class MemoryTransport : IHttpTransport
{
    static readonly string[] Lines = { "Content-Type: application/json" };
    readonly byte[] answer;

    public MemoryTransport(byte[] answer) { this.answer = answer; }

    public void Send(HttpRequest request) { request.Complete(200, Lines, answer); }
}
