package com.blinkengage;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.Test;

/** Every function of the header is reached by the JNI shim, and the enums the Java side keeps agree with it. */
public class HeaderTest {
    private static final Path TOP = Path.of(System.getProperty("blinkengage.top", "../.."));

    private static List<String> abi() throws Exception {
        String path = System.getProperty("blinkengage.header.abi");
        assertTrue("blinkengage.header.abi is not set: run scripts/java-test.sh", path != null);
        return Files.readAllLines(Path.of(path));
    }

    @Test public void everyFunctionOfTheHeaderIsCalledByTheShim() throws Exception {
        String shim = Files.readString(TOP.resolve("bindings/java/jni/blinkengage_jni.c"));
        List<String> functions = abi().stream().filter(l -> l.startsWith("fn ")).map(l -> l.split(" ")[1]).collect(Collectors.toList());
        List<String> missing = functions.stream().filter(name -> !shim.contains(name + "(")).collect(Collectors.toList());
        assertEquals("functions of the header the shim never calls", List.of(), missing);
        assertEquals(152, functions.size());
    }

    private static int constant(List<String> abi, String name) {
        return abi.stream().filter(l -> l.startsWith("const " + name + " ")).map(l -> Integer.parseInt(l.split(" ")[2]))
                .findFirst().orElseThrow(() -> new AssertionError(name + " is not in the header"));
    }

    @Test public void theEnumsAgreeWithTheHeader() throws Exception {
        List<String> abi = abi();
        for (Status status : Status.values()) {
            String name = status == Status.OK ? "BE_OK" : "BE_ERR_" + status.name();
            assertEquals(name, constant(abi, name), status.code());
        }
        for (CallbackMode mode : CallbackMode.values()) {
            assertEquals(mode.ordinal(), constant(abi, "BE_CALLBACKS_ON_" + mode.name()));
        }
        for (FetchIo io : FetchIo.values()) assertEquals(io.ordinal(), constant(abi, "BE_FETCH_IO_ON_" + io.name()));
        for (LogLevel level : LogLevel.values()) assertEquals(level.ordinal(), constant(abi, "BE_LOG_" + level.name()));
        for (FeedEventType type : FeedEventType.values()) assertEquals(type.ordinal(), constant(abi, "BE_OFFER_FEED_EVENT_" + type.name()));
        for (ErrorCode code : ErrorCode.values()) {
            if (code == ErrorCode.UNKNOWN) continue;
            String domain = code.domain().name();
            String name = "BE_" + domain + "_ERROR_" + code.name().substring(domain.length() + 1);
            assertEquals(name, constant(abi, name), code.code());
            String domainName = abi.stream().filter(l -> l.startsWith("const BE_" + domain + "_ERROR_DOMAIN ")).findFirst().orElseThrow();
            assertEquals("\"" + code.domain().domainName() + "\"", domainName.split(" ", 3)[2]);
        }
        long documented = abi.stream().filter(l -> l.matches("const BE_\\w+_ERROR_(?!DOMAIN)\\w+ \\d+")).count();
        assertEquals("every error code of the header has its ErrorCode", documented, ErrorCode.values().length - 1);
    }
}
