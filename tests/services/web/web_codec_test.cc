// The browser protocols' bytes (services/web/web_codec.h), against values
// worked out from the Connect and gRPC-Web specifications.

#include "services/web/web_codec.h"

#include <gtest/gtest.h>

namespace mancala::services::web {
namespace {

using namespace std::string_literals;

TEST(WebCodec, ContentTypesChooseProtocolAndCodec) {
  auto f = FormatOf("application/json; charset=utf-8");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->protocol, Protocol::kConnectUnary);
  EXPECT_EQ(f->codec, Codec::kJson);
  f = FormatOf("Application/Connect+Proto");
  ASSERT_TRUE(f.has_value());
  EXPECT_EQ(f->protocol, Protocol::kConnectStream);
  EXPECT_EQ(f->codec, Codec::kProto);
  EXPECT_EQ(FormatOf("application/grpc-web")->protocol, Protocol::kGrpcWeb);
  EXPECT_EQ(FormatOf("application/grpc-web-text+proto")->protocol,
            Protocol::kGrpcWebText);
  EXPECT_FALSE(FormatOf("text/plain").has_value());
  EXPECT_FALSE(FormatOf("application/grpc").has_value());  // Native gRPC.
  EXPECT_FALSE(FormatOf("application/grpc-web+json").has_value());
  EXPECT_EQ(ContentTypeOf({Protocol::kGrpcWebText, Codec::kProto}),
            "application/grpc-web-text+proto");
}

TEST(WebCodec, EnvelopesArePrefixedByFlagsAndABigEndianLength) {
  EXPECT_EQ(Envelope(kConnectEndStream, "{}"), "\x02\x00\x00\x00\x02{}"s);
  const std::string big(300, 'x');
  const std::string e = Envelope(0, big);
  EXPECT_EQ(e.substr(0, 5), "\x00\x00\x00\x01\x2c"s);
  bool too_long = true;
  auto read = ReadEnvelope(e + "rest", 1000, &too_long);
  ASSERT_TRUE(read.has_value());
  EXPECT_FALSE(too_long);
  EXPECT_EQ(read->payload, big);
  EXPECT_EQ(read->consumed, 305u);
  EXPECT_FALSE(ReadEnvelope(e.substr(0, 100), 1000, &too_long).has_value());
  EXPECT_FALSE(too_long);  // Only incomplete.
  EXPECT_FALSE(ReadEnvelope(e, 299, &too_long).has_value());
  EXPECT_TRUE(too_long);  // Refused from its prefix alone.
}

TEST(WebCodec, Base64ForTextModeAndUnpaddedForConnectDetails) {
  EXPECT_EQ(Base64("ab"), "YWI=");
  EXPECT_EQ(Base64Unpadded("ab"), "YWI");
  EXPECT_EQ(Base64Unpadded("abc"), "YWJj");
  // Text mode pads each chunk: padding may sit inside the body.
  EXPECT_EQ(DecodeBase64("YQ==YWI="), "aab");
  EXPECT_EQ(DecodeBase64("YWJj"), "abc");
  EXPECT_FALSE(DecodeBase64("Y!==").has_value());
}

TEST(WebCodec, GrpcMessageIsPercentEncodedOutsidePrintableAscii) {
  EXPECT_EQ(PercentEncode("pit 9 is out of range"), "pit 9 is out of range");
  EXPECT_EQ(PercentEncode("\xc3\xa9t\xc3\xa9 100%\n"),
            "%C3%A9t%C3%A9 100%25%0A");
}

TEST(WebCodec, ConnectErrorCodesAndTheirHttpStatuses) {
  EXPECT_EQ(ConnectCodeName(5), "not_found");
  EXPECT_EQ(ConnectCodeName(1), "canceled");
  EXPECT_EQ(ConnectCodeName(16), "unauthenticated");
  EXPECT_EQ(ConnectHttpStatus(3), 400);   // invalid_argument
  EXPECT_EQ(ConnectHttpStatus(4), 504);   // deadline_exceeded
  EXPECT_EQ(ConnectHttpStatus(5), 404);   // not_found
  EXPECT_EQ(ConnectHttpStatus(8), 429);   // resource_exhausted
  EXPECT_EQ(ConnectHttpStatus(9), 400);   // failed_precondition
  EXPECT_EQ(ConnectHttpStatus(10), 409);  // aborted
  EXPECT_EQ(ConnectHttpStatus(12), 501);  // unimplemented
  EXPECT_EQ(ConnectHttpStatus(14), 503);  // unavailable
  EXPECT_EQ(ConnectHttpStatus(16), 401);  // unauthenticated
  EXPECT_EQ(ConnectHttpStatus(99), 500);
}

TEST(WebCodec, ConnectErrorsCarryTheirDetailsInUnpaddedBase64) {
  EXPECT_EQ(ConnectErrorJson(5, "no such match",
                             {{"google.rpc.ErrorInfo", "\x0a\x01x"}}),
            R"({"code":"not_found","details":[{"type":"google.rpc.ErrorInfo",)"
            R"("value":"CgF4"}],"message":"no such match"})");
  EXPECT_EQ(ConnectErrorJson(13, "", {}), R"({"code":"internal"})");
  EXPECT_EQ(ConnectEndStreamJson(0, "", {}), "{}");
  EXPECT_EQ(ConnectEndStreamJson(14, "down", {}),
            R"({"error":{"code":"unavailable","message":"down"}})");
}

TEST(WebCodec, GrpcWebTrailersAreHeaderLines) {
  EXPECT_EQ(GrpcWebTrailers(0, "", ""), "grpc-status:0\r\n");
  EXPECT_EQ(GrpcWebTrailers(5, "no match \xc3\xa9", "\x08\x05"),
            "grpc-status:5\r\ngrpc-message:no match %C3%A9\r\n"
            "grpc-status-details-bin:CAU=\r\n");
}

TEST(WebCodec, TimeoutsInBothHeaders) {
  EXPECT_EQ(ConnectTimeoutMs("1500"), 1500);
  EXPECT_FALSE(ConnectTimeoutMs("12345678901").has_value());  // 11 digits.
  EXPECT_FALSE(ConnectTimeoutMs("-1").has_value());
  EXPECT_EQ(GrpcTimeoutMs("2S"), 2000);
  EXPECT_EQ(GrpcTimeoutMs("1H"), 3'600'000);
  EXPECT_EQ(GrpcTimeoutMs("250m"), 250);
  EXPECT_EQ(GrpcTimeoutMs("1500u"), 2);  // Rounded up: never 0 too soon.
  EXPECT_EQ(GrpcTimeoutMs("1n"), 1);
  EXPECT_FALSE(GrpcTimeoutMs("123456789m").has_value());  // 9 digits.
  EXPECT_FALSE(GrpcTimeoutMs("5x").has_value());
  EXPECT_FALSE(GrpcTimeoutMs("S").has_value());
}

TEST(WebCodec, PathsNameAServiceAndAMethod) {
  auto p = SplitPath("/mancala.v1.MatchService/GetMatch");
  ASSERT_TRUE(p.has_value());
  EXPECT_EQ(p->first, "mancala.v1.MatchService");
  EXPECT_EQ(p->second, "GetMatch");
  EXPECT_EQ(SplitPath("/grpc.health.v1.Health/Check?x=1")->second, "Check");
  EXPECT_FALSE(SplitPath("/").has_value());
  EXPECT_FALSE(SplitPath("/a/b/c").has_value());
  EXPECT_FALSE(SplitPath("//Get").has_value());
  EXPECT_FALSE(SplitPath("/svc/").has_value());
}

}  // namespace
}  // namespace mancala::services::web
