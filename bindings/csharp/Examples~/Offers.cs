// The README's C# example, complete: fetch offers for a checkout and print them, dispatching on this thread.
//   mono Offers.exe MOMENTS_URL
using System;
using BlinkEngage;

static class Offers
{
    static int Main(string[] args)
    {
        using (var config = new Config("demo-key").SetMomentsUrl(args[0]))
        using (var sdk = BlinkEngageSDK.Start(config))
        using (var request = new MomentsRequest().SetPayload("placement", "checkout"))
        {
            var task = sdk.FetchMomentsOffersAsync(request);
            while (!task.IsCompleted) { sdk.Dispatch(); System.Threading.Thread.Sleep(10); }  // a game's Update
            using (var response = task.Result)
            {
                foreach (var offer in response.Offers) Console.WriteLine(offer.Id + ": " + offer.Title);
                Console.WriteLine(response.Offers.Count + " offers");
            }
        }
        return 0;
    }
}
