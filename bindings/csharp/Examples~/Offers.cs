// The README's first program, complete: offers for a checkout and the user's offer feed, with every setting the
// feed needs, callbacks dispatched on this thread as a game's Update would.
//   mono Offers.exe MOMENTS_URL ENGAGE_URL [STORAGE_DIR]
using System;
using System.IO;
using System.Threading;
using BlinkEngage;

static class Offers
{
    static int Main(string[] args)
    {
        // Where the SDK keeps the user's identity, queued reports and caches: a directory of the app's own.
        var storage = args.Length > 2 ? args[2]
            : Path.Combine(Environment.GetFolderPath(Environment.SpecialFolder.LocalApplicationData), "my-app", "blinkengage");
        Directory.CreateDirectory(storage);
        using (var config = new Config("demo-key")   // the publisher's API key
                   .SetMomentsUrl(args[0])              // offers at moments like checkout
                   .SetEngageUrl(args[1])               // the offer feed and the events it reports
                   .SetStorageDir(storage))
        using (var sdk = BlinkEngageSDK.Start(config))
        using (var request = new MomentsRequest().SetPayload("placement", "checkout"))
        {
            sdk.SetUserIdentity("user-42");          // the app's own id for the user: without one the feed fails (1)
            var pending = 2;
            sdk.FetchMomentsOffers(request, (response, error) =>
            {
                pending--;
                if (error != null) { Console.WriteLine("no offers: " + error.Message); return; }
                using (response)
                {
                    foreach (var offer in response.Offers) Console.WriteLine(offer.Id + ": " + offer.Title);
                    Console.WriteLine(response.Offers.Count + " offers");
                }
            });
            sdk.LoadOfferFeed((feed, error) =>
            {
                pending--;
                // Code 1: no user identity; 2: the feed is off or unreachable now (show nothing).
                if (error != null) { Console.WriteLine("no feed (" + error.Code + "): " + error.Message); return; }
                using (feed)
                {
                    foreach (var group in feed.Groups) Console.WriteLine(group.Title + ": " + group.Offers.Count + " offers");
                    Console.WriteLine(feed.Groups.Count + " groups");
                }
            });
            while (pending > 0) { sdk.Dispatch(); Thread.Sleep(10); }   // the game's Update: callbacks run here
        }   // Dispose shuts down: reports still queued are delivered for up to 2 s, the rest at the next start
        return 0;
    }
}
