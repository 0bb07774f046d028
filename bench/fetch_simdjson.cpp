// The floor: libcurl with one reused handle, simdjson's On-Demand parser, every field of every offer read.
//   fetch_simdjson BASE_URL CALLS
#include <curl/curl.h>
#include <simdjson.h>
#include <string>
#include <vector>
extern "C" {
#include "fetch_common.h"
}

static size_t collect(char *data, size_t size, size_t count, void *user) {
    static_cast<std::string *>(user)->append(data, size * count);
    return size * count;
}

// Consumes any value, adding string lengths and numbers to the checksum.
static void consume(simdjson::ondemand::value value, unsigned long long &sum) {
    switch (value.type()) {
    case simdjson::ondemand::json_type::string: sum += std::string_view(value.get_string()).size(); break;
    case simdjson::ondemand::json_type::number: sum += (unsigned long long)double(value.get_double()); break;
    case simdjson::ondemand::json_type::boolean: sum += bool(value.get_bool()); break;
    case simdjson::ondemand::json_type::array:
        for (auto element : value.get_array()) consume(element.value(), sum);
        break;
    case simdjson::ondemand::json_type::object:
        for (auto field : value.get_object()) {
            sum += std::string_view(field.unescaped_key()).size();
            consume(field.value(), sum);
        }
        break;
    default: break;
    }
}

int main(int argc, char **argv) {
    if (argc < 3) return 2;
    std::string url = std::string(argv[1]) + "/offers.json?api_key=bench-key";
    size_t calls = (size_t)atol(argv[2]);
    std::vector<uint64_t> costs(calls);
    CURL *curl = curl_easy_init();
    struct curl_slist *headers = curl_slist_append(nullptr, "Content-Type: application/json");
    headers = curl_slist_append(headers, "Accept: application/json");
    std::string body;
    curl_easy_setopt(curl, CURLOPT_URL, url.c_str());
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_POSTFIELDS, "{\"placement\":\"checkout\"}");
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, collect);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    simdjson::ondemand::parser parser;
    unsigned long long sum = 0;
    long offers = 0;
    for (size_t i = 0; i < calls; i++) {
        uint64_t start = bench_now_ns();
        body.clear();
        if (curl_easy_perform(curl) != CURLE_OK) return 1;
        simdjson::padded_string padded(body);
        auto document = parser.iterate(padded);
        offers = 0;
        for (auto offer : document["data"]["offers"].get_array()) {
            for (auto field : offer.get_object()) {
                sum += std::string_view(field.unescaped_key()).size();
                consume(field.value(), sum);
            }
            offers++;
        }
        costs[i] = bench_now_ns() - start;
    }
    bench_report(costs.data(), calls, offers, sum);
    curl_slist_free_all(headers);
    curl_easy_cleanup(curl);
    return 0;
}
