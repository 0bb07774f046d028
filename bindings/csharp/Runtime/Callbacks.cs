// The only functions native code ever calls: static, [MonoPInvokeCallback], one per callback type, each held
// in a static field for the life of the process so no delegate passed to the library can be collected. The
// managed target of a call travels in user_data as a GCHandle, freed exactly once: when the callback has run
// (also when be_sdk_shutdown runs it with the cancellation error), or at once when the call was refused.
// No exception ever crosses back into native code.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;
using System.Threading;
using AOT;

namespace BlinkEngage
{
    internal static class Callbacks
    {
        static int outstanding;

        // GCHandles the binding holds for native code right now: pending calls, log handlers, transports.
        internal static int Outstanding { get { return Volatile.Read(ref outstanding); } }

        internal static IntPtr Hold(object target)
        {
            Interlocked.Increment(ref outstanding);
            return GCHandle.ToIntPtr(GCHandle.Alloc(target));
        }

        internal static object Take(IntPtr userData)
        {
            var handle = GCHandle.FromIntPtr(userData);
            var target = handle.Target;
            handle.Free();
            Interlocked.Decrement(ref outstanding);
            return target;
        }

        static object Peek(IntPtr userData) { return GCHandle.FromIntPtr(userData).Target; }

        internal static readonly MomentsCallback Moments = OnMoments;
        internal static readonly OfferFeedCallback OfferFeed = OnOfferFeed;
        internal static readonly ZoneAdCallback ZoneAd = OnZoneAd;
        internal static readonly ImageCallback Image = OnImage;
        internal static readonly LogFn Log = OnLog;
        internal static readonly HttpSendFn Send = OnSend;

        [MonoPInvokeCallback(typeof(MomentsCallback))]
        static void OnMoments(IntPtr response, IntPtr error, IntPtr userData)
        {
            var call = (PendingCall<MomentsResponse>)Take(userData);
            Guard(() => call.Complete(response == IntPtr.Zero ? null : new MomentsResponse(new MomentsResponseHandle(response)),
                                      ServiceException.From(error)));
        }

        [MonoPInvokeCallback(typeof(OfferFeedCallback))]
        static void OnOfferFeed(IntPtr feed, IntPtr error, IntPtr userData)
        {
            var call = (PendingCall<OfferFeed>)Take(userData);
            Guard(() => call.Complete(feed == IntPtr.Zero ? null : new OfferFeed(new OfferFeedHandle(feed)),
                                      ServiceException.From(error)));
        }

        [MonoPInvokeCallback(typeof(ZoneAdCallback))]
        static void OnZoneAd(IntPtr ad, IntPtr error, IntPtr userData)
        {
            var call = (PendingCall<ZoneAd>)Take(userData);
            Guard(() => call.Complete(ad == IntPtr.Zero ? null : new ZoneAd(new ZoneAdHandle(ad)),
                                      ServiceException.From(error)));
        }

        [MonoPInvokeCallback(typeof(ImageCallback))]
        static void OnImage(IntPtr image, IntPtr error, IntPtr userData)
        {
            var call = (PendingCall<Image>)Take(userData);
            Guard(() => call.Complete(image == IntPtr.Zero ? null : new Image(new ImageHandle(image)),
                                      ServiceException.From(error)));
        }

        // Any thread, several at once; the handler must not call the library (the header's rule).
        [MonoPInvokeCallback(typeof(LogFn))]
        static void OnLog(LogLevel level, IntPtr message, IntPtr userData)
        {
            var handler = (Action<LogLevel, string>)Peek(userData);
            Guard(() => handler(level, Utf8.Decode(message)));
        }

        // An SDK thread or a host thread inside a library call. A transport that throws fails its request with
        // the exception's message, so the SDK never waits for an answer that cannot come.
        [MonoPInvokeCallback(typeof(HttpSendFn))]
        static void OnSend(IntPtr request, IntPtr userData)
        {
            var transport = (IHttpTransport)Peek(userData);
            HttpRequest managed;
            try
            {
                managed = new HttpRequest(request);
            }
            catch (Exception e)
            {
                Native.be_http_request_fail(request, Utf8.Encode("the request could not be read: " + e.GetType().Name, "message"));
                Report(e);
                return;
            }
            try
            {
                transport.Send(managed);
            }
            catch (Exception e)
            {
                managed.TryFail("the host transport threw " + e.GetType().Name);
                Report(e);
            }
        }

        // Runs a host callback; marks the thread as inside one, so a Dispose of the SDK there is deferred.
        static void Guard(Action action)
        {
            callbackDepth++;
            try { action(); }
            catch (Exception e) { Report(e); }
            finally { callbackDepth--; }
        }

        [ThreadStatic] static int callbackDepth;

        internal static bool InCallback { get { return callbackDepth > 0; } }

        // Exceptions thrown by host callbacks: one rule in every binding (bindings/README.md): to the process's
        // handler, and the next callback runs.
        static void Report(Exception e) { BlinkEngageSDK.RaiseUnhandledCallbackException(e); }
    }

    // The managed side of one asynchronous call: a host callback, or a TaskCompletionSource through the
    // *Async methods. Completed exactly once, on the thread the library runs the callback on.
    internal sealed class PendingCall<T> where T : class, IDisposable
    {
        readonly Action<T, ServiceException> callback;

        internal PendingCall(Action<T, ServiceException> callback) { this.callback = callback; }

        internal void Complete(T result, ServiceException error) { callback(result, error); }
    }

    // A GCHandle that several owners share (a configuration and every SDK started from it): freed when the
    // last one lets go.
    internal sealed class Anchor
    {
        internal readonly IntPtr UserData;
        int references = 1;

        internal Anchor(object target) { UserData = Callbacks.Hold(target); }

        internal Anchor Retain()
        {
            Interlocked.Increment(ref references);
            return this;
        }

        internal static void Release(ref Anchor anchor)
        {
            var held = Interlocked.Exchange(ref anchor, null);
            if (held != null && Interlocked.Decrement(ref held.references) == 0) Callbacks.Take(held.UserData);
        }
    }
}
