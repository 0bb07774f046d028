// Unity defines AOT.MonoPInvokeCallbackAttribute in its engine assemblies; IL2CPP and Mono's full AOT emit a
// native entry point only for static methods that carry it. Outside Unity the binding defines the same
// attribute (Mono's AOT compiler matches it by name).
#if !UNITY_5_3_OR_NEWER
using System;

namespace AOT
{
    [AttributeUsage(AttributeTargets.Method)]
    internal sealed class MonoPInvokeCallbackAttribute : Attribute
    {
        public MonoPInvokeCallbackAttribute(Type type) { Type = type; }
        public Type Type { get; private set; }
    }
}
#endif
