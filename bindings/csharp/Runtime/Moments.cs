// A Moments fetch's parameters, its answer, and the offers and creatives borrowed from it.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace BlinkEngage
{
    /// <summary>The parameters of a Moments fetch (be_moments_request). The fetch copies them. Setters throw the
    /// library's message for a refused value ("loyaltyboost" other than "0", "1", "2"; "creative" other than
    /// "0", "1").</summary>
    public sealed class MomentsRequest : IDisposable
    {
        internal readonly MomentsRequestHandle Handle;

        public MomentsRequest()
        {
            Handle = Native.be_moments_request_new();
            if (Handle.IsInvalid) throw Errors.LastForNull();
        }

        public void Dispose() { Handle.Dispose(); }

        public MomentsRequest SetLoyaltyBoost(string value) { return Check(Native.be_moments_request_set_loyaltyboost(Handle, Utf8.Encode(value, "value"))); }
        public MomentsRequest SetCreative(string value) { return Check(Native.be_moments_request_set_creative(Handle, Utf8.Encode(value, "value"))); }
        public MomentsRequest SetCampaignId(string campaignId) { return Check(Native.be_moments_request_set_campaign_id(Handle, Utf8.Encode(campaignId, "campaignId"))); }
        public MomentsRequest SetDevelopment(bool enabled) { return Check(Native.be_moments_request_set_development(Handle, enabled ? 1 : 0)); }
        /// <summary>One payload attribute (placement, email, ...); a key set twice keeps the last value.</summary>
        public MomentsRequest SetPayload(string key, string value) { return Check(Native.be_moments_request_set_payload(Handle, Utf8.Encode(key, "key"), Utf8.Encode(value, "value"))); }

        MomentsRequest Check(Status status)
        {
            Errors.Check(status);
            return this;
        }
    }

    /// <summary>A decoded Moments answer (be_moments_response, retained for as long as this object lives). Its
    /// offers are read from it and throw <see cref="ObjectDisposedException"/> once it is disposed.</summary>
    public sealed class MomentsResponse : IDisposable
    {
        internal readonly MomentsResponseHandle Handle;
        Offer[] offers;

        internal MomentsResponse(MomentsResponseHandle handle) { Handle = handle; }

        public void Dispose() { Handle.Dispose(); }

        public IReadOnlyList<Offer> Offers
        {
            get
            {
                using (new Lease(Handle))
                {
                    if (offers != null) return offers;
                    var count = (int)Native.be_moments_response_offer_count(Handle);
                    var read = new Offer[count];
                    for (var i = 0; i < count; i++) read[i] = new Offer(Handle, Native.be_moments_response_offer_at(Handle, (UIntPtr)i));
                    return offers = read;
                }
            }
        }

        /// <summary>A style value by its dotted path ("offerText.textColor"); null when absent.</summary>
        public string Style(string path) { return Utf8.Decode(Native.be_moments_response_style(Handle, Utf8.Encode(path, "path"))); }

        public string PrivacyUrl { get { return Utf8.Decode(Native.be_moments_response_privacy_url(Handle)); } }
    }

    /// <summary>One offer, borrowed from the response, feed or screen it came from: its getters answer while that
    /// owner lives and throw <see cref="ObjectDisposedException"/> after. A getter is null where the value is
    /// absent or empty; URLs are only ever absolute http(s).</summary>
    public sealed class Offer
    {
        internal readonly SafeHandle Owner;
        internal readonly IntPtr Pointer;

        internal Offer(SafeHandle owner, IntPtr pointer)
        {
            Owner = owner;
            Pointer = pointer;
        }

        public string Id { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_id(Pointer)); } }
        public string Title { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_title(Pointer)); } }
        public string Description { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_description(Pointer)); } }
        public string ImageUrl { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_image_url(Pointer)); } }
        public string ClickUrl { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_click_url(Pointer)); } }
        /// <summary>The impression pixel ("pixel"). The SDK fires beacons itself; a host firing one replaces each
        /// <c>{cbuster}</c> (or <c>%7Bcbuster%7D</c>) with a fresh random number first, as the SDK does.</summary>
        public string PixelUrl { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_pixel_url(Pointer)); } }
        /// <summary>The advertiser's impression pixel ("adv_pixel_url"); see <see cref="PixelUrl"/>.</summary>
        public string AdvertiserPixelUrl { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_adv_pixel_url(Pointer)); } }
        /// <summary>The beacon of closing the offer ("beacons"."close"); see <see cref="PixelUrl"/>.</summary>
        public string CloseBeaconUrl { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_close_beacon_url(Pointer)); } }
        /// <summary>The beacon of the negative CTA ("beacons"."no_thanks_click"); see <see cref="PixelUrl"/>.</summary>
        public string NoThanksBeaconUrl { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_no_thanks_beacon_url(Pointer)); } }
        public string CtaYes { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_cta_yes(Pointer)); } }
        public string CtaNo { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_cta_no(Pointer)); } }
        public string TermsHtml { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_terms_html(Pointer)); } }
        /// <summary>The offer as the service sent it, JSON text.</summary>
        public string Json { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_json(Pointer)); } }

        /// <summary>Any top-level field: a string as it is, a number or boolean as its JSON text.</summary>
        public string Field(string key)
        {
            var bytes = Utf8.Encode(key, "key");
            using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_field(Pointer, bytes));
        }

        public IReadOnlyList<Creative> Creatives
        {
            get
            {
                using (new Lease(Owner))
                {
                    var count = (int)Native.be_offer_creative_count(Pointer);
                    var creatives = new Creative[count];
                    for (var i = 0; i < count; i++) creatives[i] = new Creative(Owner, Native.be_offer_creative_at(Pointer, (UIntPtr)i));
                    return creatives;
                }
            }
        }
    }

    /// <summary>One creative (image) of an offer, borrowed like its offer.</summary>
    public sealed class Creative
    {
        readonly SafeHandle owner;
        readonly IntPtr pointer;

        internal Creative(SafeHandle owner, IntPtr pointer)
        {
            this.owner = owner;
            this.pointer = pointer;
        }

        public string Url { get { using (new Lease(owner)) return Utf8.Decode(Native.be_creative_url(pointer)); } }
        public uint Width { get { using (new Lease(owner)) return Native.be_creative_width(pointer); } }
        public uint Height { get { using (new Lease(owner)) return Native.be_creative_height(pointer); } }
        public string Type { get { using (new Lease(owner)) return Utf8.Decode(Native.be_creative_type(pointer)); } }
        public bool IsPrimary { get { using (new Lease(owner)) return Native.be_creative_is_primary(pointer) != 0; } }
    }
}
