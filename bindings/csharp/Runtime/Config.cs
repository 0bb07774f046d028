// be_config: every option of the header, as chained setters that throw the library's message when refused.
using System;

namespace BlinkEngage
{
    /// <summary>The configuration an SDK starts from (be_config). Each setter throws
    /// <see cref="BlinkEngageException"/> with the library's message when the value is refused, and returns this
    /// configuration. The SDK copies it at <see cref="BlinkEngageSDK.Start"/>: dispose it whenever convenient.
    /// Callbacks default to <see cref="BlinkEngage.CallbackMode.Dispatch"/> here (the C default is the SDK's
    /// thread): a game engine wants them on its own thread.</summary>
    public sealed class Config : IDisposable
    {
        internal readonly ConfigHandle Handle;

        /// <param name="apiKey">the publisher's key; "" is accepted (fetches then fail with Moments error 1).</param>
        public Config(string apiKey)
        {
            Handle = Native.be_config_new(Utf8.Encode(apiKey, "apiKey"));
            if (Handle.IsInvalid) throw Errors.LastForNull();
            SetCallbackMode(CallbackMode.Dispatch);
        }

        public void Dispose() { Handle.Dispose(); }

        public Config SetMomentsUrl(string baseUrl) { return Check(Native.be_config_set_moments_url(Handle, Utf8.Encode(baseUrl, "baseUrl"))); }
        public Config SetEngageUrl(string baseUrl) { return Check(Native.be_config_set_engage_url(Handle, Utf8.Encode(baseUrl, "baseUrl"))); }
        /// <param name="urlTemplate">must contain "{zone}".</param>
        public Config SetZoneAdUrl(string urlTemplate) { return Check(Native.be_config_set_zone_ad_url(Handle, Utf8.Encode(urlTemplate, "urlTemplate"))); }
        public Config SetStorageDir(string path)
        {
            Check(Native.be_config_set_storage_dir(Handle, Utf8.Encode(path, "path")));
            HasStorageDir = true;
            return this;
        }

        /// <summary>Whether <see cref="SetStorageDir"/> named the storage directory (else the library's default,
        /// which <c>BlinkEngageRunner</c> replaces with one under <c>Application.persistentDataPath</c>).</summary>
        public bool HasStorageDir { get; private set; }
        /// <param name="userAgent">"" restores the default.</param>
        public Config SetUserAgent(string userAgent) { return Check(Native.be_config_set_user_agent(Handle, Utf8.Encode(userAgent, "userAgent"))); }
        public Config SetTimeoutMs(uint timeoutMs) { return Check(Native.be_config_set_timeout_ms(Handle, timeoutMs)); }
        public Config SetDevelopment(bool enabled) { return Check(Native.be_config_set_development(Handle, enabled ? 1 : 0)); }
        public Config SetCallbackMode(CallbackMode mode) { return Check(Native.be_config_set_callback_mode(Handle, mode)); }
        public Config SetFetchIo(FetchIo io) { return Check(Native.be_config_set_fetch_io(Handle, io)); }
        /// <summary>The viewable-impression rule: at least <paramref name="minFraction"/> visible for <paramref name="minMs"/> ms (MRC: 0.5, 1000).</summary>
        public Config SetViewability(double minFraction, uint minMs) { return Check(Native.be_config_set_viewability(Handle, minFraction, minMs)); }
        /// <summary>The flight recorder's size in entries; 0 turns it off (default: 256 in development mode).</summary>
        public Config SetRecorder(uint maxEntries) { return Check(Native.be_config_set_recorder(Handle, maxEntries)); }
        public Config SetImpressionBeacons(ImpressionBeacons when) { return Check(Native.be_config_set_impression_beacons(Handle, when)); }
        /// <summary>Whether the start opens the service's connections ahead of the first fetch (default: true).</summary>
        public Config SetWarmUpAtStart(bool enabled) { return Check(Native.be_config_set_warm_up_at_start(Handle, enabled ? 1 : 0)); }
        public Config SetOutboxLimits(uint maxItems, uint maxAgeSeconds) { return Check(Native.be_config_set_outbox_limits(Handle, maxItems, maxAgeSeconds)); }
        /// <param name="maxAgeSeconds">0 turns the feed cache off.</param>
        public Config SetFeedCache(uint maxAgeSeconds) { return Check(Native.be_config_set_feed_cache(Handle, maxAgeSeconds)); }
        public Config SetPrefetchTtlSeconds(uint ttlSeconds) { return Check(Native.be_config_set_prefetch_ttl_s(Handle, ttlSeconds)); }
        public Config SetImageCache(ulong memoryBytes, ulong diskBytes) { return Check(Native.be_config_set_image_cache(Handle, memoryBytes, diskBytes)); }
        /// <param name="url">http://, https:// or socks5h://host:port, credentials allowed; null connects directly.</param>
        public Config SetProxy(string url) { return Check(Native.be_config_set_proxy(Handle, Utf8.EncodeNullable(url, "url"))); }
        /// <param name="path">a PEM file; null returns to the system's store.</param>
        public Config SetCaFile(string path) { return Check(Native.be_config_set_ca_file(Handle, Utf8.EncodeNullable(path, "path"))); }
        /// <param name="pins">"sha256//BASE64" hashes of the key, separated by ";"; null pins nothing.</param>
        public Config SetPinnedPublicKey(string pins) { return Check(Native.be_config_set_pinned_public_key(Handle, Utf8.EncodeNullable(pins, "pins"))); }

        /// <summary>Installs a log handler for <paramref name="minLevel"/> and above; null removes it. It is called
        /// synchronously on whichever thread logs, possibly several at once, and must not call the library.</summary>
        public Config SetLogHandler(Action<LogLevel, string> handler, LogLevel minLevel = LogLevel.Info)
        {
            return Install(ref Handle.LogAnchor, handler,
                           userData => Native.be_config_set_log_handler(Handle, handler == null ? null : Callbacks.Log, minLevel, userData));
        }

        /// <summary>Sends every request of the SDK through <paramref name="transport"/> instead of the built-in
        /// one; null returns to the built-in transport. See <see cref="IHttpTransport"/> for its threads.</summary>
        public Config SetHttpTransport(IHttpTransport transport)
        {
            return Install(ref Handle.TransportAnchor, transport,
                           userData => Native.be_config_set_http_transport(Handle, transport == null ? null : Callbacks.Send, userData));
        }

        // Hands `target` to the library through a new anchor (or removes it when null); the slot's old anchor is let
        // go only once the library took the new one, so a refused call changes nothing.
        Config Install(ref Anchor slot, object target, Func<IntPtr, Status> set)
        {
            var anchor = target == null ? null : new Anchor(target);
            var status = set(anchor == null ? IntPtr.Zero : anchor.UserData);
            if (status != Status.Ok)
            {
                Anchor.Release(ref anchor);
                throw Errors.Last(status);
            }
            Anchor.Release(ref slot);
            slot = anchor;
            return this;
        }

        Config Check(Status status)
        {
            Errors.Check(status);
            return this;
        }
    }
}
