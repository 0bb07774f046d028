// The public enums, error domains and exceptions. Every value is the header's own constant (Native.cs), so
// the two cannot disagree.
using System;

namespace BlinkEngage
{
    /// <summary>The result of a synchronous call (be_status). Failures arrive as a <see cref="BlinkEngageException"/>.</summary>
    public enum Status
    {
        Ok = Native.BE_OK,
        InvalidArgument = Native.BE_ERR_INVALID_ARGUMENT,
        InvalidState = Native.BE_ERR_INVALID_STATE,
        NotFound = Native.BE_ERR_NOT_FOUND,
        IO = Native.BE_ERR_IO,
        Timeout = Native.BE_ERR_TIMEOUT,
        NoMemory = Native.BE_ERR_NO_MEMORY,
    }

    /// <summary>Where callbacks run. The binding's default is <see cref="Dispatch"/>: on the thread that calls
    /// <see cref="BlinkEngageSDK.Dispatch"/>, Unity's main thread when called from <c>Update</c>.</summary>
    public enum CallbackMode
    {
        SdkThread = Native.BE_CALLBACKS_ON_SDK_THREAD,
        Dispatch = Native.BE_CALLBACKS_ON_DISPATCH,
    }

    /// <summary>Where offer fetches do their network I/O (be_config_set_fetch_io).</summary>
    /// <summary>When impression beacons fire (be_impression_beacons).</summary>
    public enum ImpressionBeacons
    {
        OnAppear = Native.BE_IMPRESSION_BEACONS_ON_APPEAR,
        OnViewable = Native.BE_IMPRESSION_BEACONS_ON_VIEWABLE,
    }

    public enum FetchIo
    {
        SdkThread = Native.BE_FETCH_IO_ON_SDK_THREAD,
        Dispatch = Native.BE_FETCH_IO_ON_DISPATCH,
    }

    /// <summary>Severity of a log message.</summary>
    public enum LogLevel
    {
        Debug = Native.BE_LOG_DEBUG,
        Info = Native.BE_LOG_INFO,
        Warning = Native.BE_LOG_WARNING,
        Error = Native.BE_LOG_ERROR,
    }

    /// <summary>What a feed event reports: <see cref="DidAppear"/> and <see cref="DidTap"/> take an offer,
    /// <see cref="ViewAll"/> a group.</summary>
    public enum OfferFeedEventType
    {
        DidAppear = Native.BE_OFFER_FEED_EVENT_DID_APPEAR,
        DidTap = Native.BE_OFFER_FEED_EVENT_DID_TAP,
        ViewAll = Native.BE_OFFER_FEED_EVENT_VIEW_ALL,
    }

    /// <summary>The domains of <see cref="ServiceException.Domain"/>, and their codes.</summary>
    public static class ErrorDomains
    {
        public const string Moments = Native.BE_MOMENTS_ERROR_DOMAIN;
        public const string OfferFeed = Native.BE_OFFER_FEED_ERROR_DOMAIN;
        public const string ZoneAd = Native.BE_ZONE_AD_ERROR_DOMAIN;
        public const string Image = Native.BE_IMAGE_ERROR_DOMAIN;
        public const string Cancelled = Native.BE_CANCELLED_ERROR_DOMAIN;

        public const int MomentsInvalidParameter = Native.BE_MOMENTS_ERROR_INVALID_PARAMETER;
        public const int MomentsInvalidUrl = Native.BE_MOMENTS_ERROR_INVALID_URL;
        public const int MomentsNoOffers = Native.BE_MOMENTS_ERROR_NO_OFFERS;
        public const int MomentsDecoding = Native.BE_MOMENTS_ERROR_DECODING;
        public const int MomentsNetwork = Native.BE_MOMENTS_ERROR_NETWORK;
        public const int MomentsHttpStatus = Native.BE_MOMENTS_ERROR_HTTP_STATUS;
        public const int OfferFeedNoUser = Native.BE_OFFER_FEED_ERROR_NO_USER;
        public const int OfferFeedUnavailable = Native.BE_OFFER_FEED_ERROR_UNAVAILABLE;
        public const int ZoneAdMalformed = Native.BE_ZONE_AD_ERROR_MALFORMED;
        public const int ZoneAdNetwork = Native.BE_ZONE_AD_ERROR_NETWORK;
        public const int ZoneAdHttpStatus = Native.BE_ZONE_AD_ERROR_HTTP_STATUS;
        public const int ImageNetwork = Native.BE_IMAGE_ERROR_NETWORK;
        public const int ImageHttpStatus = Native.BE_IMAGE_ERROR_HTTP_STATUS;
        public const int ImageNotAnImage = Native.BE_IMAGE_ERROR_NOT_AN_IMAGE;
        public const int ImageTooLarge = Native.BE_IMAGE_ERROR_TOO_LARGE;
        public const int ImageInvalidUrl = Native.BE_IMAGE_ERROR_INVALID_URL;
        public const int CancelledShutdown = Native.BE_CANCELLED_ERROR_SHUTDOWN;
    }

    /// <summary>A call the library refused: <see cref="Status"/> and the library's own message
    /// (be_last_error_message), read on the calling thread right after the call.</summary>
    public class BlinkEngageException : Exception
    {
        /// <summary>The failing status; <see cref="BlinkEngage.Status.Ok"/> for a <see cref="ServiceException"/>.</summary>
        public Status Status { get; }

        internal BlinkEngageException(Status status, string message) : base(message) { Status = status; }
    }

    /// <summary>An asynchronous failure (be_error): a domain of <see cref="ErrorDomains"/>, its code, the HTTP
    /// status behind it (0 when none) and the library's message.</summary>
    public sealed class ServiceException : BlinkEngageException
    {
        public string Domain { get; }
        public int Code { get; }
        public int HttpStatus { get; }

        /// <summary>True when the SDK shut down before the operation completed.</summary>
        public bool IsCancelled { get { return Domain == ErrorDomains.Cancelled; } }

        public ServiceException(string domain, int code, string message, int httpStatus)
            : base(Status.Ok, domain + " " + code + ": " + message)
        {
            Domain = domain;
            Code = code;
            HttpStatus = httpStatus;
        }

        // The borrowed be_error, copied; null for IntPtr.Zero (success).
        internal static ServiceException From(IntPtr error)
        {
            if (error == IntPtr.Zero) return null;
            var copy = (be_error)System.Runtime.InteropServices.Marshal.PtrToStructure(error, typeof(be_error));
            return new ServiceException(Utf8.Decode(copy.domain) ?? "", copy.code, Utf8.Decode(copy.message) ?? "",
                                        copy.http_status);
        }
    }
}
