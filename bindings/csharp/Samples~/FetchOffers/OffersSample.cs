// Fetches offers when the scene starts and logs them. Dispatch() in Update runs the SDK's callbacks, and
// completes its tasks, on Unity's main thread: nothing here runs on another thread.
using BlinkEngage;
using UnityEngine;

public sealed class OffersSample : MonoBehaviour
{
    public string apiKey = "YOUR_API_KEY";
    public string placement = "checkout";
    BlinkEngageSDK sdk;

    async void Start()
    {
        using (var config = new Config(apiKey))
            sdk = BlinkEngageSDK.Start(config);
        using (var request = new MomentsRequest().SetPayload("placement", placement))
        {
            try
            {
                using (var response = await sdk.FetchMomentsOffersAsync(request))
                    foreach (var offer in response.Offers)
                        Debug.Log("offer " + offer.Id + ": " + offer.Title + " -> " + offer.ClickUrl);
            }
            catch (ServiceException error)
            {
                Debug.LogWarning("no offers: " + error.Domain + " " + error.Code + ": " + error.Message);
            }
        }
    }

    void Update()
    {
        if (sdk != null) sdk.Dispatch();
    }

    void OnDestroy()
    {
        if (sdk != null) sdk.Dispose();
        sdk = null;
    }
}
