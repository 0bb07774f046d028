// The C# binding's side of the bindings benchmark (scripts/bench.sh): the same work as fetch_blinkengage.c,
// report_blinkengage.c and field_blinkengage.c, through BlinkEngage's C# API, printed the same way. Each mode first
// runs as many untimed calls as it times, as the Java contender does for its JIT.
//   BindingBench.exe fetch MOMENTS_URL CALLS | report ENGAGE_URL CALLS | field MOMENTS_URL BATCHES
using System;
using System.Diagnostics;
using System.IO;
using System.Linq;
using System.Runtime.InteropServices;
using BlinkEngage;

static class BindingBench
{
    static readonly string[] ScalarKeys = {
        "campaign_id", "mini_text", "pixel", "adv_pixel_url", "useraction_cta", "useraction_url", "short_headline",
        "short_description", "advertiser_name", "is_loyaltyboost", "loyaltyboost_requirements", "save_for_later_url",
        "offer_description", "offerwall_url", "qr_code_img",
    };

    [StructLayout(LayoutKind.Sequential)]
    struct PollFd { public int fd; public short events; public short revents; }

    [DllImport("libc")]
    static extern int poll([In, Out] PollFd[] fds, UIntPtr count, int timeout);

    static int Length(string text) { return text == null ? 0 : System.Text.Encoding.UTF8.GetByteCount(text); }

    static void Report(double[] costsUs, long offers, long sum)
    {
        Array.Sort(costsUs);
        Console.WriteLine("{0:F3} {1:F3} {2} {3}", costsUs[costsUs.Length / 2], costsUs[(int)(0.99 * (costsUs.Length - 1))], offers, sum);
    }

    static double Microseconds(long ticks) { return ticks * 1e6 / Stopwatch.Frequency; }

    static void Until(BlinkEngageSDK sdk, Func<bool> done)
    {
        var fds = new[] { new PollFd { fd = sdk.DispatchFd, events = 1 } };
        while (!done())
        {
            poll(fds, (UIntPtr)1, 1000);
            sdk.Dispatch();
        }
    }

    static int Main(string[] args)
    {
        var mode = args[0];
        var count = int.Parse(args[2]);
        var storage = Path.Combine(Path.GetTempPath(), "be-csharp-bench-" + Guid.NewGuid().ToString("N"));
        Directory.CreateDirectory(storage);
        var costs = new double[count];
        long sum = 0, offers = 0;
        using (var config = new Config("bench-key").SetStorageDir(storage))
        {
            if (mode == "report") config.SetEngageUrl(args[1]); else config.SetMomentsUrl(args[1]);
            using (var sdk = BlinkEngageSDK.Start(config))
            using (var request = new MomentsRequest().SetPayload("placement", "checkout"))
            {
                sdk.ShutdownTimeoutMs = 0;
                if (mode == "fetch")
                {
                    for (var i = -count; i < count; i++)  // the first half untimed: as in the Java contender
                    {
                        var start = Stopwatch.GetTimestamp();
                        var done = false;
                        sdk.FetchMomentsOffers(request, (response, error) =>
                        {
                            if (error != null) throw error;
                            offers = response.Offers.Count;
                            foreach (var offer in response.Offers)
                            {
                                sum += Length(offer.Id) + Length(offer.Title) + Length(offer.Description) + Length(offer.ImageUrl) +
                                       Length(offer.ClickUrl) + Length(offer.CtaYes) + Length(offer.CtaNo) + Length(offer.TermsHtml);
                                foreach (var key in ScalarKeys) sum += Length(offer.Field(key));
                                sum += Length(offer.Json);
                            }
                            response.Dispose();
                            done = true;
                        });
                        Until(sdk, () => done);
                        if (i >= 0) costs[i] = Microseconds(Stopwatch.GetTimestamp() - start);
                    }
                }
                else if (mode == "report")
                {
                    sdk.SetUserIdentity("bench-user");
                    OfferFeed feed = null;
                    sdk.LoadOfferFeed((loaded, error) => { if (error != null) throw error; feed = loaded; });
                    Until(sdk, () => feed != null);
                    using (var tap = new OfferFeedEvent(feed.Groups[0].Offers[0], OfferFeedEventType.DidTap))
                    {
                        for (var i = -count; i < count; i++)
                        {
                            var start = Stopwatch.GetTimestamp();
                            sdk.ReportOfferFeedEvent(tap);
                            if (i >= 0) costs[i] = Microseconds(Stopwatch.GetTimestamp() - start);
                        }
                    }
                    offers = count;
                    feed.Dispose();
                }
                else
                {
                    MomentsResponse fetched = null;
                    sdk.FetchMomentsOffers(request, (response, error) => { if (error != null) throw error; fetched = response; });
                    Until(sdk, () => fetched != null);
                    var offer = fetched.Offers[0];
                    for (var i = -count; i < count; i++)
                    {
                        var start = Stopwatch.GetTimestamp();
                        for (var k = 0; k < 1000; k++) sum += offer.Field("title").Length;
                        if (i >= 0) costs[i] = Microseconds(Stopwatch.GetTimestamp() - start) / 1000;
                    }
                    offers = fetched.Offers.Count;
                    fetched.Dispose();
                }
            }
        }
        Report(costs, offers, sum);
        try { Directory.Delete(storage, true); } catch (IOException) { }
        return 0;
    }
}
