// BlinkEngage in a Unity app without code of the host's in Update: the runner calls Dispatch for the SDKs it runs
// once a frame on the main thread, so every callback and every *Async task completes there.
using System.Collections.Generic;
using System.IO;
using UnityEngine;

namespace BlinkEngage.Unity
{
    /// <summary>Runs SDKs in a Unity app: created on first use on a GameObject of its own, kept across scenes
    /// (<c>DontDestroyOnLoad</c>), it calls <see cref="BlinkEngageSDK.Dispatch"/> for each SDK it runs every frame, so
    /// callbacks run on the main thread, one frame's worth at a time. An exception a callback throws goes to
    /// <c>Debug.LogException</c> and the frame goes on. When the runner is destroyed (the app quits) it disposes its
    /// SDKs without flushing: <c>Dispose</c> then takes no more than the threads' stop, never the network's time,
    /// and reports not yet delivered stay stored for the next start.</summary>
    [AddComponentMenu("")]
    public sealed class BlinkEngageRunner : MonoBehaviour
    {
        static BlinkEngageRunner instance;
        readonly List<BlinkEngageSDK> sdks = new List<BlinkEngageSDK>();

        /// <summary>Starts an SDK that this runner runs. Unless <paramref name="config"/> names a storage directory,
        /// the SDK keeps its state in <c>Application.persistentDataPath/blinkengage</c>, which Unity keeps across
        /// launches and updates on every platform. Callbacks run in Dispatch mode (the binding's default).</summary>
        public static BlinkEngageSDK StartSDK(Config config)
        {
            if (config == null) throw new System.ArgumentNullException("config");
            if (!config.HasStorageDir)
            {
                var directory = Path.Combine(Application.persistentDataPath, "blinkengage");
                Directory.CreateDirectory(directory);
                config.SetStorageDir(directory);
            }
            var sdk = BlinkEngageSDK.Start(config);
            Run(sdk);
            return sdk;
        }

        /// <summary>Runs an SDK the host started itself (in <see cref="CallbackMode.Dispatch"/>). A disposed SDK is
        /// dropped at the next frame.</summary>
        public static void Run(BlinkEngageSDK sdk)
        {
            if (sdk == null) throw new System.ArgumentNullException("sdk");
            var runner = Instance;
            if (!runner.sdks.Contains(sdk)) runner.sdks.Add(sdk);
        }

        /// <summary>The runner, created on first use.</summary>
        public static BlinkEngageRunner Instance
        {
            get
            {
                if (instance != null) return instance;
                var host = new GameObject("BlinkEngageRunner");
                DontDestroyOnLoad(host);
                instance = host.AddComponent<BlinkEngageRunner>();
                BlinkEngageSDK.UnhandledCallbackException += Debug.LogException;
                return instance;
            }
        }

        /// <summary>The SDKs this runner runs now.</summary>
        public int Count { get { return sdks.Count; } }

        void Update()
        {
            // Backwards: a callback may dispose its SDK, which is then dropped.
            for (var i = sdks.Count - 1; i >= 0; i--)
            {
                if (i >= sdks.Count) continue;
                var sdk = sdks[i];
                if (sdk.IsDisposed) sdks.RemoveAt(i);
                else sdk.Dispatch();
            }
        }

        void OnDestroy()
        {
            foreach (var sdk in sdks)
            {
                sdk.ShutdownTimeoutMs = 0;
                sdk.Dispose();
            }
            sdks.Clear();
            if (instance != this) return;
            instance = null;
            BlinkEngageSDK.UnhandledCallbackException -= Debug.LogException;
        }
    }
}
