// Native.cs against the header: the same functions with the same parameter kinds, the same constants, and
// structs laid out at the C compiler's offsets. BE_HEADER_ABI is scripts/header-abi.py's output and
// BE_STRUCT_OFFSETS a small C program's (scripts/csharp-test.sh makes both).
using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Reflection;
using System.Runtime.InteropServices;
using BlinkEngage;

static class HeaderCheck
{
    static string Kind(Type type)
    {
        if (type.IsByRef || type.IsArray || type == typeof(IntPtr) || type == typeof(string) || typeof(SafeHandle).IsAssignableFrom(type))
            return "ptr";
        if (typeof(Delegate).IsAssignableFrom(type)) return "fn";
        if (type.IsEnum) type = Enum.GetUnderlyingType(type);
        if (type == typeof(void)) return "void";
        if (type == typeof(int)) return "i32";
        if (type == typeof(uint)) return "u32";
        if (type == typeof(ulong)) return "u64";
        if (type == typeof(UIntPtr)) return "usize";
        if (type == typeof(double)) return "f64";
        return "unknown:" + type.Name;
    }

    static string[] Lines(string variable)
    {
        var path = Environment.GetEnvironmentVariable(variable);
        if (string.IsNullOrEmpty(path)) throw new AssertionFailed(variable + " is not set: run scripts/csharp-test.sh");
        return File.ReadAllLines(path);
    }

    [Test]
    static void EveryFunctionOfTheHeaderIsDeclaredAlike()
    {
        var header = Lines("BE_HEADER_ABI").Where(l => l.StartsWith("fn ")).Select(l => l.Substring(3)).ToList();
        var declared = typeof(Native).GetMethods(BindingFlags.Static | BindingFlags.NonPublic)
            .Where(m => (m.Attributes & MethodAttributes.PinvokeImpl) != 0)
            .Select(m => string.Join(" ", new[] { m.Name, Kind(m.ReturnType) }.Concat(m.GetParameters().Select(p => Kind(p.ParameterType)))))
            .ToList();
        var missing = header.Except(declared).ToList();
        var extra = declared.Except(header).ToList();
        Assert.True(missing.Count == 0 && extra.Count == 0,
                    "the header has, the binding has not: [" + string.Join("; ", missing) + "]; the binding has, the header has not: [" + string.Join("; ", extra) + "]");
        Assert.Equal(152, declared.Count, "functions declared");
    }

    [Test]
    static void EveryConstantOfTheHeaderHasItsValue()
    {
        var header = Lines("BE_HEADER_ABI").Where(l => l.StartsWith("const ")).Select(l => l.Substring(6)).ToList();
        var declared = typeof(Native).GetFields(BindingFlags.Static | BindingFlags.NonPublic)
            .Where(f => f.IsLiteral && f.Name.StartsWith("BE_"))
            .Select(f => f.Name + " " + (f.FieldType == typeof(string) ? "\"" + f.GetRawConstantValue() + "\"" : f.GetRawConstantValue().ToString()))
            .ToList();
        var missing = header.Except(declared).ToList();
        var extra = declared.Except(header).ToList();
        Assert.True(missing.Count == 0 && extra.Count == 0,
                    "constants differ: header only [" + string.Join("; ", missing) + "], binding only [" + string.Join("; ", extra) + "]");
    }

    [Test]
    static void StructsHaveTheCompilersLayout()
    {
        var checkedFields = 0;
        foreach (var line in Lines("BE_STRUCT_OFFSETS"))
        {
            var parts = line.Split(' ');
            var type = typeof(Native).Assembly.GetType("BlinkEngage." + parts[0], true);
            if (parts[1] == "sizeof")
            {
                Assert.Equal(int.Parse(parts[2]), Marshal.SizeOf(type), parts[0] + " size");
                continue;
            }
            Assert.Equal(int.Parse(parts[2]), (int)Marshal.OffsetOf(type, parts[1]), parts[0] + "." + parts[1] + " offset");
            checkedFields++;
        }
        var headerFields = Lines("BE_HEADER_ABI").Count(l => l.StartsWith("field "));
        Assert.Equal(headerFields, checkedFields, "fields checked");
        foreach (var type in new[] { typeof(be_error), typeof(be_stats), typeof(be_storage_info) })
        {
            var names = Lines("BE_HEADER_ABI").Where(l => l.StartsWith("field " + type.Name + " ")).Select(l => l.Split(' ')[2]);
            Assert.Equal(string.Join(",", names), string.Join(",", type.GetFields().Select(f => f.Name)), type.Name + " fields in order");
        }
    }

    // No function pointer handed to the library may be an instance delegate: IL2CPP and full AOT need static
    // [MonoPInvokeCallback] methods.
    [Test]
    static void OnlyStaticMarkedMethodsAreHandedToNativeCode()
    {
        var fields = typeof(Native).Assembly.GetType("BlinkEngage.Callbacks", true)
            .GetFields(BindingFlags.Static | BindingFlags.NonPublic).Where(f => typeof(Delegate).IsAssignableFrom(f.FieldType) && !f.Name.StartsWith("<")).ToList();  // not the compiler's lambda caches
        Assert.Equal(6, fields.Count, "one delegate per callback type");
        foreach (var field in fields)
        {
            var target = ((Delegate)field.GetValue(null)).Method;
            Assert.True(target.IsStatic, field.Name + " is static");
            var marks = target.GetCustomAttributes(false).Where(a => a.GetType().Name == "MonoPInvokeCallbackAttribute").ToList();
            Assert.Equal(1, marks.Count, field.Name + " carries [MonoPInvokeCallback]");
            Assert.Equal(field.FieldType, (Type)marks[0].GetType().GetProperty("Type").GetValue(marks[0], null), field.Name + "'s delegate type");
        }
    }
}
