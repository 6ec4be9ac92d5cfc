// The files a web port serves (services/web/web_root.h), from a folder the
// test writes.

#include "services/web/web_root.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

namespace mancala::services::web {
namespace {

namespace fs = std::filesystem;

class WebRootTest : public ::testing::Test {
 protected:
  void SetUp() override {
    std::string tmpl = (fs::temp_directory_path() / "web_root.XXXXXX");
    ASSERT_NE(mkdtemp(tmpl.data()), nullptr);
    dir_ = tmpl;
  }
  void TearDown() override { fs::remove_all(dir_); }

  void Write(const std::string& relative, const std::string& bytes) {
    const fs::path path = dir_ / relative;
    fs::create_directories(path.parent_path());
    std::ofstream(path, std::ios::binary) << bytes;
  }

  fs::path dir_;
};

TEST_F(WebRootTest, ServesWhatItReadAndNothingElse) {
  Write("index.html", "<!doctype html><title>Mancala</title>");
  Write("app.js", "console.log(1);");
  Write("css/board.css", "body{}");
  Write("play/index.html", "<p>play</p>");
  Write(".env", "SECRET=1");
  Write(".git/config", "[core]");
  auto root = WebRoot::Load(dir_.string());
  ASSERT_TRUE(root.ok()) << root.status();
  EXPECT_EQ(root->file_count(), 4u);

  const StaticFile* index = root->Find("/");
  ASSERT_NE(index, nullptr);
  EXPECT_EQ(index->body, "<!doctype html><title>Mancala</title>");
  EXPECT_EQ(index->content_type, "text/html; charset=utf-8");
  EXPECT_EQ(root->Find("/index.html"), index);
  EXPECT_EQ(root->Find("/?match=matches/7#board"), index);  // Invite links.

  const StaticFile* app = root->Find("/app.js?v=3");
  ASSERT_NE(app, nullptr);
  EXPECT_EQ(app->body, "console.log(1);");
  EXPECT_EQ(app->content_type, "text/javascript; charset=utf-8");
  ASSERT_NE(root->Find("/css/board.css"), nullptr);
  EXPECT_EQ(root->Find("/css/board.css")->content_type,
            "text/css; charset=utf-8");
  ASSERT_NE(root->Find("/play/"), nullptr);
  EXPECT_EQ(root->Find("/play/")->body, "<p>play</p>");

  // Only names read at Load: no folder without an index, no hidden file, no
  // way out of the folder, nothing without the leading slash.
  EXPECT_EQ(root->Find("/css/"), nullptr);
  EXPECT_EQ(root->Find("/css"), nullptr);
  EXPECT_EQ(root->Find("/.env"), nullptr);
  EXPECT_EQ(root->Find("/.git/config"), nullptr);
  EXPECT_EQ(root->Find("/../index.html"), nullptr);
  EXPECT_EQ(root->Find("/css/../app.js"), nullptr);
  EXPECT_EQ(root->Find("/%2e%2e/etc/passwd"), nullptr);
  EXPECT_EQ(root->Find("app.js"), nullptr);
  EXPECT_EQ(root->Find(""), nullptr);
  EXPECT_EQ(root->Find("/missing.js"), nullptr);
}

TEST_F(WebRootTest, EtagsFollowTheBytesAlone) {
  Write("index.html", "a");
  Write("b.html", "b");
  Write("copy/index.html", "a");
  auto root = WebRoot::Load(dir_.string());
  ASSERT_TRUE(root.ok()) << root.status();
  // FNV-1a 64 of "a" is af63dc4c8601ec8c: the same on every node.
  EXPECT_EQ(root->Find("/")->etag, "\"af63dc4c8601ec8c\"");
  EXPECT_EQ(root->Find("/copy/")->etag, root->Find("/")->etag);
  EXPECT_NE(root->Find("/b.html")->etag, root->Find("/")->etag);
}

TEST_F(WebRootTest, RefusesWhatIsNoPage) {
  EXPECT_EQ(WebRoot::Load((dir_ / "missing").string()).status().code(),
            absl::StatusCode::kInvalidArgument);
  Write("app.js", "x");
  auto no_index = WebRoot::Load(dir_.string());
  EXPECT_EQ(no_index.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_NE(no_index.status().message().find("no index.html"),
            std::string::npos);
  EXPECT_EQ(WebRoot::Load((dir_ / "app.js").string()).status().code(),
            absl::StatusCode::kInvalidArgument);  // A file, not a folder.
  Write("index.html", std::string(600, 'x'));
  auto too_big = WebRoot::Load(dir_.string(), /*max_bytes=*/512);
  EXPECT_EQ(too_big.status().code(), absl::StatusCode::kInvalidArgument);
  EXPECT_TRUE(WebRoot::Load(dir_.string(), 1024).ok());
}

TEST(WebRootContentTypes, ByExtension) {
  EXPECT_EQ(ContentTypeOfFile("a.SVG"), "image/svg+xml");
  EXPECT_EQ(ContentTypeOfFile("board.png"), "image/png");
  EXPECT_EQ(ContentTypeOfFile("client.js.map"), "application/json");
  EXPECT_EQ(ContentTypeOfFile("font.woff2"), "font/woff2");
  EXPECT_EQ(ContentTypeOfFile("README"), "application/octet-stream");
  EXPECT_EQ(ContentTypeOfFile("x.exe"), "application/octet-stream");
}

}  // namespace
}  // namespace mancala::services::web
