// The offer feed, its groups, the headless screens and feed events.
using System;
using System.Collections.Generic;
using System.Runtime.InteropServices;

namespace BlinkEngage
{
    /// <summary>One successful feed load (be_offer_feed, retained while this object lives). Every caller of a
    /// shared load gets the same feed.</summary>
    public sealed class OfferFeed : IDisposable
    {
        internal readonly OfferFeedHandle Handle;
        OfferGroup[] groups;

        internal OfferFeed(OfferFeedHandle handle) { Handle = handle; }

        public void Dispose() { Handle.Dispose(); }

        public string Id { get { return Utf8.Decode(Native.be_offer_feed_id(Handle)); } }
        /// <summary>True when a failed load was answered from the feed cache.</summary>
        public bool IsCached { get { return Native.be_offer_feed_is_cached(Handle) != 0; } }
        public uint AgeSeconds { get { return Native.be_offer_feed_age_s(Handle); } }

        public IReadOnlyList<OfferGroup> Groups
        {
            get
            {
                using (new Lease(Handle))
                {
                    if (groups != null) return groups;
                    var count = (int)Native.be_offer_feed_group_count(Handle);
                    var read = new OfferGroup[count];
                    for (var i = 0; i < count; i++) read[i] = new OfferGroup(Handle, Native.be_offer_feed_group_at(Handle, (UIntPtr)i));
                    return groups = read;
                }
            }
        }
    }

    /// <summary>A group of a feed (title and offers), borrowed from its feed.</summary>
    public sealed class OfferGroup
    {
        internal readonly SafeHandle Owner;
        internal readonly IntPtr Pointer;

        internal OfferGroup(SafeHandle owner, IntPtr pointer)
        {
            Owner = owner;
            Pointer = pointer;
        }

        public string Id { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_group_id(Pointer)); } }
        public string Title { get { using (new Lease(Owner)) return Utf8.Decode(Native.be_offer_group_title(Pointer)); } }

        public IReadOnlyList<Offer> Offers
        {
            get
            {
                using (new Lease(Owner))
                {
                    var count = (int)Native.be_offer_group_offer_count(Pointer);
                    var offers = new Offer[count];
                    for (var i = 0; i < count; i++) offers[i] = new Offer(Owner, Native.be_offer_group_offer_at(Pointer, (UIntPtr)i));
                    return offers;
                }
            }
        }
    }

    /// <summary>A headless SDK screen (be_offer_screen): one offer at a time, with navigation, and the beacons each
    /// step owes. It keeps its feed or response alive; what it hands out lives until it is disposed.</summary>
    public sealed class OfferScreen : IDisposable
    {
        readonly OfferScreenHandle handle;

        OfferScreen(OfferScreenHandle handle) { this.handle = handle; }

        // null for an object not in the newest load (the library's NULL).
        internal static OfferScreen Wrap(OfferScreenHandle handle) { return handle.IsInvalid ? null : new OfferScreen(handle); }

        public void Dispose() { handle.Dispose(); }

        public Offer CurrentOffer
        {
            get
            {
                var offer = Native.be_offer_screen_current_offer(handle);
                return offer == IntPtr.Zero ? null : new Offer(handle, offer);
            }
        }

        public int Index { get { return (int)Native.be_offer_screen_index(handle); } }
        public int OfferCount { get { return (int)Native.be_offer_screen_offer_count(handle); } }
        public bool HasNext { get { return Native.be_offer_screen_has_next(handle) != 0; } }
        public bool HasPrevious { get { return Native.be_offer_screen_has_previous(handle) != 0; } }
        public bool IsFinished { get { return Native.be_offer_screen_is_finished(handle) != 0; } }
        public void ShowNext() { Errors.Check(Native.be_offer_screen_show_next(handle)); }
        public void ShowPrevious() { Errors.Check(Native.be_offer_screen_show_previous(handle)); }
        /// <summary>The positive call to action: fires its beacons and returns the URL to open (null when none).</summary>
        public string Accept() { return Utf8.Decode(Native.be_offer_screen_accept(handle)); }
        public void Decline() { Errors.Check(Native.be_offer_screen_decline(handle)); }
        public void Close() { Errors.Check(Native.be_offer_screen_close(handle)); }
        public string Style(string path) { return Utf8.Decode(Native.be_offer_screen_style(handle, Utf8.Encode(path, "path"))); }
    }

    /// <summary>What the offer wall shows now (be_offer_wall_level).</summary>
    public enum OfferWallLevel { Wall = 0, Group = 1, Offer = 2, Closed = 3 }

    /// <summary>The offer wall (be_offer_wall): the newest feed as a headless SDK screen. The SDK owns its navigation
    /// (the wall, a group's offers, an offer's details) and records its feed events with their positions: did_appear
    /// as the host reports offers visible, view_all for a group opened, did_tap for an offer opened.</summary>
    public sealed class OfferWall : IDisposable
    {
        readonly OfferWallHandle handle;

        OfferWall(OfferWallHandle handle) { this.handle = handle; }

        internal static OfferWall Wrap(OfferWallHandle handle) { return handle.IsInvalid ? null : new OfferWall(handle); }

        public void Dispose() { handle.Dispose(); }

        public OfferWallLevel Level { get { return Native.be_offer_wall_get_level(handle); } }

        /// <summary>The offer shown at the offer level; null at the others.</summary>
        public Offer CurrentOffer
        {
            get
            {
                var offer = Native.be_offer_wall_current_offer(handle);
                return offer == IntPtr.Zero ? null : new Offer(handle, offer);
            }
        }

        /// <summary>The group shown at the group level, or the shown offer's group; its id, null at the wall.</summary>
        public string CurrentGroupId
        {
            get
            {
                var group = Native.be_offer_wall_current_group(handle);
                return group == IntPtr.Zero ? null : Utf8.Decode(Native.be_offer_group_id(group));
            }
        }

        /// <summary>Whether the wall shows a feed (it always does until disposed).</summary>
        public bool HasFeed { get { return Native.be_offer_wall_feed(handle) != IntPtr.Zero; } }

        /// <summary>The offer at <paramref name="offer"/> of group <paramref name="group"/> is <paramref name="fraction"/>
        /// (0 to 1) of its pixels on screen now.</summary>
        public void ReportVisibility(int group, int offer, double fraction)
        {
            Errors.Check(Native.be_offer_wall_report_visibility(handle, Index(group), Index(offer), fraction));
        }

        public void OpenGroup(int group) { Errors.Check(Native.be_offer_wall_open_group(handle, Index(group))); }
        public void OpenOffer(int group, int offer) { Errors.Check(Native.be_offer_wall_open_offer(handle, Index(group), Index(offer))); }
        /// <summary>The positive call to action in an offer's details: returns the URL to open (null when none) and goes back.</summary>
        public string Accept() { return Utf8.Decode(Native.be_offer_wall_accept(handle)); }
        public void Decline() { Errors.Check(Native.be_offer_wall_decline(handle)); }
        public void Back() { Errors.Check(Native.be_offer_wall_back(handle)); }
        /// <summary>Closes the wall from any level (unanswered details fire their close beacon).</summary>
        public void Close() { Errors.Check(Native.be_offer_wall_close(handle)); }

        static UIntPtr Index(int value)
        {
            if (value < 0) throw new ArgumentOutOfRangeException("index", "a position is not negative");
            return (UIntPtr)value;
        }
    }

    /// <summary>A feed event to report (be_offer_feed_event): it copies the ids and positions it needs when made.</summary>
    public sealed class OfferFeedEvent : IDisposable
    {
        internal readonly OfferFeedEventHandle Handle;

        /// <summary>An event about an offer (<see cref="OfferFeedEventType.DidAppear"/>, <see cref="OfferFeedEventType.DidTap"/>).</summary>
        public OfferFeedEvent(Offer offer, OfferFeedEventType type)
        {
            if (offer == null) throw new ArgumentNullException("offer");
            using (new Lease(offer.Owner)) Handle = Native.be_offer_feed_event_new_with_offer(offer.Pointer, type);
            if (Handle.IsInvalid) throw Errors.LastForNull();
        }

        /// <summary>An event about a group (<see cref="OfferFeedEventType.ViewAll"/>).</summary>
        public OfferFeedEvent(OfferGroup group, OfferFeedEventType type)
        {
            if (group == null) throw new ArgumentNullException("group");
            using (new Lease(group.Owner)) Handle = Native.be_offer_feed_event_new_with_group(group.Pointer, type);
            if (Handle.IsInvalid) throw Errors.LastForNull();
        }

        public void Dispose() { Handle.Dispose(); }
    }
}
