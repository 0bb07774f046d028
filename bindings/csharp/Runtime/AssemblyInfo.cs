// The tests read Native.cs by reflection and check its declarations against the header.
using System.Runtime.CompilerServices;

[assembly: InternalsVisibleTo("BlinkEngage.Tests")]
