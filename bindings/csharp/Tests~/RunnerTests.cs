// BlinkEngageRunner against the UnityEngine stand-in: frames are calls of its Update, as Unity's player loop makes
// them, and its end is OnDestroy (both private, as in Unity: called here by reflection, as Unity calls them).
using System;
using System.IO;
using System.Reflection;
using System.Threading;
using BlinkEngage;
using BlinkEngage.Unity;

static class RunnerTests
{
    static void Frame(BlinkEngageRunner runner) { Call(runner, "Update"); }

    static void Call(BlinkEngageRunner runner, string message)
    {
        typeof(BlinkEngageRunner).GetMethod(message, BindingFlags.Instance | BindingFlags.NonPublic).Invoke(runner, null);
    }

    // Frames until `done`, waiting on the descriptor between them as a frame's time would pass.
    static void FramesUntil(BlinkEngageRunner runner, BlinkEngageSDK sdk, Func<bool> done, string what)
    {
        Wait.Until(sdk, () => { Frame(runner); return done(); }, what);
    }

    [Test]
    static void TheRunnerDispatchesEveryFrameOnTheMainThreadAndKeepsStateUnderPersistentDataPath()
    {
        var data = Path.Combine(Path.GetTempPath(), "be-unity-" + Guid.NewGuid().ToString("N"));
        UnityEngine.Application.persistentDataPath = data;
        using (var sandbox = new Sandbox())
        using (var config = new Config("demo-key").SetMomentsUrl(sandbox.Url + "/native/v4"))
        {
            var sdk = BlinkEngageRunner.StartSDK(config);
            var runner = BlinkEngageRunner.Instance;
            try
            {
                Assert.True(Directory.Exists(Path.Combine(data, "blinkengage")), "the storage directory under persistentDataPath");
                Assert.True(UnityEngine.Object.KeptAcrossScenes.Contains(runner.gameObject), "the runner's GameObject is kept across scenes");
                var second = BlinkEngageSDK.Start(sandbox.Config());
                BlinkEngageRunner.Run(second);
                Assert.True(BlinkEngageRunner.Instance == runner && runner.Count == 2, "one runner for every SDK");
                second.Dispose();
                Frame(runner);
                Assert.Equal(1, runner.Count, "a disposed SDK is dropped at the next frame");

                var main = Thread.CurrentThread.ManagedThreadId;
                int ranOn = -1;
                using (var request = new MomentsRequest().SetPayload("placement", "checkout"))
                {
                    sdk.FetchMomentsOffers(request, (response, error) =>
                    {
                        ranOn = Thread.CurrentThread.ManagedThreadId;
                        if (response != null) response.Dispose();
                    });
                    FramesUntil(runner, sdk, () => ranOn != -1, "the callback, from the runner's frames");
                }
                Assert.Equal(main, ranOn, "the callback ran on the thread of the frames");
            }
            finally
            {
                Call(runner, "OnDestroy");
            }
            Assert.True(sdk.IsDisposed, "OnDestroy disposes the SDKs it runs");
        }
    }

    [Test]
    static void ACallbackThatThrowsGoesToLogExceptionAndTheFrameGoesOn()
    {
        using (var sandbox = new Sandbox())
        using (var config = sandbox.Config())
        {
            var sdk = BlinkEngageRunner.StartSDK(config);
            var runner = BlinkEngageRunner.Instance;
            var logged = UnityEngine.Debug.Logged.Count;
            try
            {
                var ran = 0;
                using (var request = new MomentsRequest().SetPayload("placement", "checkout"))
                {
                    for (var i = 0; i < 2; i++)
                        sdk.FetchMomentsOffers(request, (response, error) =>
                        {
                            ran++;
                            if (response != null) response.Dispose();
                            throw new InvalidOperationException("host bug");
                        });
                    FramesUntil(runner, sdk, () => ran == 2, "both callbacks, the first one's exception notwithstanding");
                }
                Assert.Equal(logged + 2, UnityEngine.Debug.Logged.Count, "both exceptions logged with Debug.LogException");
            }
            finally { Call(runner, "OnDestroy"); }
        }
    }

    // OnDestroy while a beacon's delivery is held by the server: Dispose does not wait for the network. The gate
    // stays closed until OnDestroy has returned, so a Dispose that waited for delivery would never return.
    [Test]
    static void OnDestroyDoesNotWaitForTheNetwork()
    {
        using (var sandbox = new Sandbox())
        using (var config = sandbox.Config())
        {
            var sdk = BlinkEngageRunner.StartSDK(config);
            var runner = BlinkEngageRunner.Instance;
            sandbox.Post("/_sandbox/faults", "{\"path\": \"/b/\", \"gate\": true, \"times\": 1000}");
            MomentsResponse response = null;
            using (var request = new MomentsRequest().SetPayload("placement", "checkout"))
            {
                sdk.FetchMomentsOffers(request, (r, error) => response = r);
                FramesUntil(runner, sdk, () => response != null, "offers");
            }
            using (response)
            using (var screen = sdk.MomentsScreen(response))  // the first offer on screen: its pixels fire
            {
                Wait.Until(sdk, () => sandbox.Requests("/b/") > 0, "a beacon held by the gate");
                var destroyed = new Thread(() => Call(runner, "OnDestroy"));
                destroyed.Start();
                var returned = destroyed.Join(TimeSpan.FromSeconds(60));  // a bound for a broken build, not a timing
                sandbox.Post("/_sandbox/release");
                destroyed.Join();
                Assert.True(returned, "OnDestroy returned while the server held the beacon");
                Assert.True(sdk.IsDisposed, "the SDK is disposed");
            }
        }
    }
}
