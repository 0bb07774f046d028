// Instructions per URL read, by shape, for callgrind: ROUNDS passes over 64 URLs of one shape through the reading
// every URL field of an answer goes through (`ServiceURL.isAbsoluteHTTP`, which hands back the href when the
// URL is not its own). scripts/bench.sh runs it at ROUNDS and 2 × ROUNDS: the difference over ROUNDS × 64 is the
// cost of one URL, without start-up.
//   URLCheckBench SHAPE ROUNDS
import BlinkEngageCore
import Glibc

let shapes: [String: (Int) -> String] = [
    // What services send: a host name, a path, a query of a few parameters.
    "name": { "https://track.example.com/sdk/offer_click?o_id=\(4000 + $0)&c_id=1201&sess_id=5f2c0001e1&fp=USER_FP" },
    "ipv4": { "http://10.20.30.\($0 % 250):8080/sdk/offer_click?o_id=\(4000 + $0)&c_id=1201&sess_id=5f2c0001e1" },
    "ipv6": { "http://[2001:db8::\($0 % 250)]:8080/sdk/offer_click?o_id=\(4000 + $0)&c_id=1201&sess_id=5f2c0001e1" },
    "long-query": { i in
        "https://track.example.com/c?o_id=\(4000 + i)&data=" + String(repeating: "k\(i % 10)=v1-2_3.4~5", count: 40)
    },
    "escapes": { "https://track.example.com/c/%E2%82%AC\($0)/x?q=%7Bcbuster%7D&name=J%C3%BCrgen%20M%C3%BCller&u=https%3A%2F%2Fa.example%2F" },
    // Not their own href: a Unicode host and a space, handed out as the href a browser opens.
    "rewritten": { "https://bücher.example/angebot?x=\($0)&q=a b" },
]

let arguments = CommandLine.arguments
guard arguments.count == 3, let make = shapes[arguments[1]], let rounds = Int(arguments[2]) else {
    print("usage: URLCheckBench \(shapes.keys.sorted().joined(separator: "|")) ROUNDS")
    exit(2)
}
let urls = (0..<64).map(make)
var accepted = 0
for _ in 0..<rounds {
    for url in urls where ServiceURL.isAbsoluteHTTP(url) { accepted += 1 }
}
print(accepted)
