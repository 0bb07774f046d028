// be_sdk: start, dispatch, every call of the header on an SDK, and shutdown.
using System;
using System.Threading;
using System.Threading.Tasks;

namespace BlinkEngage
{
    /// <summary>A running SDK (be_sdk). Every method may be called from any thread. Callbacks and the
    /// <c>*Async</c> methods' tasks complete on the thread that calls <see cref="Dispatch"/> (in the default
    /// <see cref="CallbackMode.Dispatch"/>), one at a time, never inside the call that started them. Dispose
    /// shuts the SDK down: every callback still owed runs first, with a <see cref="ServiceException"/> whose
    /// <see cref="ServiceException.IsCancelled"/> is true, on the disposing thread. A call after Dispose throws
    /// <see cref="ObjectDisposedException"/>.</summary>
    public sealed class BlinkEngageSDK : IDisposable
    {
        readonly SdkHandle handle;

        BlinkEngageSDK(SdkHandle handle) { this.handle = handle; }

        /// <summary>The library's version, "MAJOR.MINOR.PATCH".</summary>
        public static string Version { get { return Utf8.Decode(Native.be_version()); } }

        /// <summary>GCHandles the binding holds for native code now: one per call whose callback is owed, and
        /// one per log handler or transport still in use. 0 once every SDK and configuration is disposed.</summary>
        public static int OutstandingCallbackHandles { get { return Callbacks.Outstanding; } }

        /// <summary>Raised for every exception a callback, log handler or transport threw, on the thread that ran
        /// it, after which the next callback runs: one never reaches native code nor the caller of
        /// <see cref="Dispatch"/> (in Unity it would skip the rest of that frame's Update). Without a handler it is
        /// written to standard error; <c>BlinkEngageRunner</c> sends it to <c>Debug.LogException</c>.</summary>
        public static event Action<Exception> UnhandledCallbackException;

        internal static void RaiseUnhandledCallbackException(Exception e)
        {
            var handler = UnhandledCallbackException;
            if (handler != null) handler(e);
            else Console.Error.WriteLine("blinkengage: a callback threw: " + e);
        }

        /// <summary>Starts an SDK from a copy of <paramref name="config"/>.</summary>
        /// <exception cref="BlinkEngageException">with the library's message: bad configuration (InvalidArgument),
        /// an unusable storage directory (IO), a thread that cannot start.</exception>
        public static BlinkEngageSDK Start(Config config)
        {
            if (config == null) throw new ArgumentNullException("config");
            SdkHandle started;
            var status = Native.be_sdk_start(config.Handle, out started);
            if (status != Status.Ok) throw Errors.Last(status);
            var log = config.Handle.LogAnchor;
            var transport = config.Handle.TransportAnchor;
            started.LogAnchor = log == null ? null : log.Retain();
            started.TransportAnchor = transport == null ? null : transport.Retain();
            return new BlinkEngageSDK(started);
        }

        /// <summary>How long <see cref="Dispose"/> waits for queued beacons and events (default 2000 ms).</summary>
        public uint ShutdownTimeoutMs
        {
            get { return handle.ShutdownTimeoutMs; }
            set { handle.ShutdownTimeoutMs = value; }
        }

        /// <summary>Whether <see cref="Dispose"/> has run.</summary>
        public bool IsDisposed { get { return handle.IsClosed; } }

        /// <summary>Shuts down (be_sdk_shutdown). Inside one of this SDK's callbacks the shutdown happens
        /// right after the callback returns. A second Dispose does nothing.</summary>
        public void Dispose() { handle.Dispose(); }

        /// <summary>Runs up to <paramref name="maxCallbacks"/> owed callbacks (all when &lt;= 0) on this thread;
        /// call it from the engine's loop (<c>MonoBehaviour.Update</c>), or let <c>BlinkEngageRunner</c> do it.
        /// Returns how many ran. An exception a callback throws goes to <see cref="UnhandledCallbackException"/>,
        /// never out of Dispatch.</summary>
        public int Dispatch(int maxCallbacks = 0) { return Native.be_sdk_dispatch(handle, maxCallbacks); }

        /// <summary>A descriptor readable while callbacks wait, for hosts with a poll loop; -1 in the other mode.</summary>
        public int DispatchFd { get { return Native.be_sdk_dispatch_fd(handle); } }

        public void SetUserIdentity(string publisherUserId) { Errors.Check(Native.be_sdk_set_user_identity(handle, Utf8.Encode(publisherUserId, "publisherUserId"))); }
        public void ClearUserIdentity() { Errors.Check(Native.be_sdk_clear_user_identity(handle)); }

        /// <summary>Tries every queued beacon and event now and waits for them; blocks the calling thread.</summary>
        /// <exception cref="BlinkEngageException">Timeout when not everything was delivered (nothing is lost).</exception>
        public void Flush(uint timeoutMs) { Errors.Check(Native.be_sdk_flush(handle, timeoutMs)); }

        /// <param name="applies">null unknown (not sent), else whether GDPR applies.</param>
        /// <param name="tcfString">the TCF consent string, or null.</param>
        public void SetGdpr(bool? applies, string tcfString)
        {
            var value = applies.HasValue ? (applies.Value ? 1 : 0) : -1;
            Errors.Check(Native.be_sdk_set_gdpr(handle, value, Utf8.EncodeNullable(tcfString, "tcfString")));
        }

        /// <param name="usPrivacy">"1YNN" and the like; null clears it.</param>
        public void SetUsPrivacy(string usPrivacy) { Errors.Check(Native.be_sdk_set_us_privacy(handle, Utf8.EncodeNullable(usPrivacy, "usPrivacy"))); }
        /// <param name="gppString">null clears both.</param>
        /// <param name="sectionIds">"7,8": required with a GPP string.</param>
        public void SetGpp(string gppString, string sectionIds) { Errors.Check(Native.be_sdk_set_gpp(handle, Utf8.EncodeNullable(gppString, "gppString"), Utf8.EncodeNullable(sectionIds, "sectionIds"))); }
        public void SetChildDirected(bool childDirected) { Errors.Check(Native.be_sdk_set_child_directed(handle, childDirected ? 1 : 0)); }
        public void SetLimitTracking(bool limited) { Errors.Check(Native.be_sdk_set_limit_tracking(handle, limited ? 1 : 0)); }
        /// <summary>Erases the user's identity, queued items, caches and stored feed, here and in storage.</summary>
        public void DeleteUserData() { Errors.Check(Native.be_sdk_delete_user_data(handle)); }

        // -- Moments --------------------------------------------------------------------------------------------

        /// <summary>Fetches offers; <paramref name="completion"/> gets a response (dispose it, or leave it to the
        /// collector) or a <see cref="ServiceException"/>, exactly once, unless this call throws.</summary>
        public void FetchMomentsOffers(MomentsRequest request, Action<MomentsResponse, ServiceException> completion)
        {
            if (request == null) throw new ArgumentNullException("request");
            var userData = Hold(completion);
            try { Started(Native.be_sdk_fetch_moments_offers(handle, request.Handle, Callbacks.Moments, userData)); }
            catch { Callbacks.Take(userData); throw; }
        }

        /// <summary><see cref="FetchMomentsOffers(MomentsRequest, Action{MomentsResponse, ServiceException})"/> as a
        /// task, completed on the dispatching thread. Cancelling the token ends the task at once; the late answer
        /// is released unseen.</summary>
        public Task<MomentsResponse> FetchMomentsOffersAsync(MomentsRequest request, CancellationToken cancellation = default(CancellationToken))
        {
            var source = PendingTask<MomentsResponse>.Start(cancellation);
            FetchMomentsOffers(request, source.Complete);
            return source.Task;
        }

        /// <summary>Starts the fetch now and keeps the answer for a later fetch with the same parameters.</summary>
        public void PrefetchMomentsOffers(MomentsRequest request)
        {
            if (request == null) throw new ArgumentNullException("request");
            Errors.Check(Native.be_sdk_prefetch_moments_offers(handle, request.Handle));
        }

        // -- Offer feed and screens -----------------------------------------------------------------------------

        /// <summary>Loads the offer feed; loads made while one is in flight share it. Errors: domain OfferFeed,
        /// code 1 (no user: set an identity) or 2 (unavailable: treat as off).</summary>
        public void LoadOfferFeed(Action<OfferFeed, ServiceException> completion)
        {
            var userData = Hold(completion);
            try { Started(Native.be_sdk_load_offer_feed(handle, Callbacks.OfferFeed, userData)); }
            catch { Callbacks.Take(userData); throw; }
        }

        public Task<OfferFeed> LoadOfferFeedAsync(CancellationToken cancellation = default(CancellationToken))
        {
            var source = PendingTask<OfferFeed>.Start(cancellation);
            LoadOfferFeed(source.Complete);
            return source.Task;
        }

        /// <summary>The screen for one offer of the newest feed load; null for an offer not in it.</summary>
        public OfferScreen OfferDetailsScreen(Offer offer)
        {
            if (offer == null) throw new ArgumentNullException("offer");
            using (new Lease(offer.Owner)) return OfferScreen.Wrap(Native.be_sdk_offer_details_screen(handle, offer.Pointer));
        }

        /// <summary>The screen for a group of the newest feed load; null for a group not in it.</summary>
        public OfferScreen OfferGroupScreen(OfferGroup group)
        {
            if (group == null) throw new ArgumentNullException("group");
            using (new Lease(group.Owner)) return OfferScreen.Wrap(Native.be_sdk_offer_group_screen(handle, group.Pointer));
        }

        /// <summary>The offer wall over the newest feed load; null before a feed was loaded. The SDK records its events.</summary>
        public OfferWall OfferWall() { return BlinkEngage.OfferWall.Wrap(Native.be_sdk_offer_wall(handle)); }

        /// <summary>The single-offer unit over a Moments answer (next/previous, accept, decline, close).</summary>
        public OfferScreen MomentsScreen(MomentsResponse response)
        {
            if (response == null) throw new ArgumentNullException("response");
            return OfferScreen.Wrap(Native.be_sdk_moments_screen(handle, response.Handle));
        }

        /// <summary>Reports a feed event durably (delivered at least once, with one id).</summary>
        public void ReportOfferFeedEvent(OfferFeedEvent feedEvent)
        {
            if (feedEvent == null) throw new ArgumentNullException("feedEvent");
            Errors.Check(Native.be_sdk_report_offer_feed_event(handle, feedEvent.Handle));
        }

        /// <summary>Reports that <paramref name="offer"/> is <paramref name="visibleFraction"/> (0 to 1) of its pixels on
        /// screen now: call it whenever the fraction changes, 0 when it leaves. Cheap enough for every frame.</summary>
        public void ReportVisibility(Offer offer, double visibleFraction)
        {
            if (offer == null) throw new ArgumentNullException("offer");
            using (new Lease(offer.Owner)) Errors.Check(Native.be_sdk_report_visibility(handle, offer.Pointer, visibleFraction));
        }

        /// <summary>Opens the connections the next fetch needs ahead of it (TLS done): a fetch then costs one round trip.</summary>
        public void WarmUp() { Errors.Check(Native.be_sdk_warm_up(handle)); }

        /// <summary>The flight recorder's entries, one JSON object per line, oldest first.</summary>
        public string RecorderJson()
        {
            IntPtr text;
            Errors.Check(Native.be_sdk_recorder_json(handle, out text));
            try { return Utf8.Decode(text); } finally { Native.be_string_free(text); }
        }

        /// <summary>HAR 1.2 of flight recorder lines (those of <see cref="RecorderJson"/> or of a recorder.jsonl file).</summary>
        public static string RecorderHar(string jsonLines)
        {
            IntPtr har;
            Errors.Check(Native.be_recorder_har(Utf8.Encode(jsonLines, "jsonLines"), out har));
            try { return Utf8.Decode(har); } finally { Native.be_string_free(har); }
        }

        // -- Zone ads and images ---------------------------------------------------------------------------------

        public void FetchZoneAd(string zoneId, Action<ZoneAd, ServiceException> completion)
        {
            var zone = Utf8.Encode(zoneId, "zoneId");
            var userData = Hold(completion);
            try { Started(Native.be_sdk_fetch_zone_ad(handle, zone, Callbacks.ZoneAd, userData)); }
            catch { Callbacks.Take(userData); throw; }
        }

        public Task<ZoneAd> FetchZoneAdAsync(string zoneId, CancellationToken cancellation = default(CancellationToken))
        {
            var source = PendingTask<ZoneAd>.Start(cancellation);
            FetchZoneAd(zoneId, source.Complete);
            return source.Task;
        }

        public void ReportZoneAdClick(ZoneAd ad)
        {
            if (ad == null) throw new ArgumentNullException("ad");
            Errors.Check(Native.be_sdk_report_zone_ad_click(handle, ad.Handle));
        }

        /// <summary>Fetches an image through the SDK's memory and disk caches.</summary>
        public void FetchImage(string url, Action<Image, ServiceException> completion)
        {
            var bytes = Utf8.Encode(url, "url");
            var userData = Hold(completion);
            try { Started(Native.be_sdk_fetch_image(handle, bytes, Callbacks.Image, userData)); }
            catch { Callbacks.Take(userData); throw; }
        }

        public Task<Image> FetchImageAsync(string url, CancellationToken cancellation = default(CancellationToken))
        {
            var source = PendingTask<Image>.Start(cancellation);
            FetchImage(url, source.Complete);
            return source.Task;
        }

        // -- Stats and storage ------------------------------------------------------------------------------------

        public Stats GetStats()
        {
            var stats = new be_stats { struct_size = (uint)System.Runtime.InteropServices.Marshal.SizeOf(typeof(be_stats)) };
            Errors.Check(Native.be_sdk_get_stats(handle, ref stats));
            return new Stats(stats);
        }

        /// <summary>Reads a storage directory without starting an SDK (be_storage_inspect).</summary>
        public static StorageInfo InspectStorage(string storageDir, string apiKey)
        {
            var info = new be_storage_info { struct_size = (uint)System.Runtime.InteropServices.Marshal.SizeOf(typeof(be_storage_info)) };
            Errors.Check(Native.be_storage_inspect(Utf8.Encode(storageDir, "storageDir"), Utf8.Encode(apiKey, "apiKey"), ref info));
            return new StorageInfo(info);
        }

        static IntPtr Hold<T>(Action<T, ServiceException> completion) where T : class, IDisposable
        {
            if (completion == null) throw new ArgumentNullException("completion");
            return Callbacks.Hold(new PendingCall<T>(completion));
        }

        // A refused call never calls back: the caller frees its handle when this (or the call on a disposed
        // SDK) throws.
        static void Started(Status status)
        {
            if (status != Status.Ok) throw Errors.Last(status);
        }
    }

    // A TaskCompletionSource fed by a completion; a result that arrives after cancellation is disposed.
    internal sealed class PendingTask<T> where T : class, IDisposable
    {
        readonly TaskCompletionSource<T> source = new TaskCompletionSource<T>();

        internal Task<T> Task { get { return source.Task; } }

        internal static PendingTask<T> Start(CancellationToken cancellation)
        {
            var pending = new PendingTask<T>();
            if (cancellation.CanBeCanceled) cancellation.Register(pending.Cancel, cancellation);
            return pending;
        }

        void Cancel(object token) { source.TrySetCanceled((CancellationToken)token); }

        internal void Complete(T result, ServiceException error)
        {
            if (error != null) source.TrySetException(error);
            else if (!source.TrySetResult(result)) result.Dispose();
        }
    }
}
