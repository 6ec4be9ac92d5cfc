"""Items 3 and 4: text limits count Unicode code points of valid UTF-8;
names are trimmed and blank ones refused; every string field has a
documented maximum, checked first, and no error quotes more than a short
prefix of client input."""

import unittest

import grpc

import harness
from harness import auth, expect_error
from mancala.v1 import (admin_service_pb2 as ad, field_limits_pb2, game_pb2,
                        match_service_pb2 as ms, matchmaking_service_pb2 as mm,
                        player_service_pb2 as ps, rating_service_pb2 as rs)

srv = harness.srv


def create_player(name, **kw):
    return srv.players.CreatePlayer(ps.CreatePlayerRequest(display_name=name),
                                    timeout=harness.DEADLINE_S, **kw)


class DisplayNameTest(unittest.TestCase):
    def test_limit_is_40_characters_not_bytes(self):
        for name in ("é" * 40, "漢" * 40, "😀" * 40):  # 80, 120, 160 bytes
            with self.subTest(name=name[0]):
                self.assertEqual(create_player(name).player.display_name, name)
        for name in ("é" * 41, "a" * 41):
            _, info = expect_error(self, srv.players.CreatePlayer,
                                   grpc.StatusCode.INVALID_ARGUMENT,
                                   "FIELD_TOO_LONG",
                                   ps.CreatePlayerRequest(display_name=name))
            self.assertEqual(info.metadata["field"], "display_name")

    def test_trimmed_and_blank_refused(self):
        self.assertEqual(
            create_player("  \u3000Ann\u00a0 ").player.display_name, "Ann")
        for blank in (" ", "\u3000\u00a0 ", "\t"):
            expect_error(self, srv.players.CreatePlayer,
                         grpc.StatusCode.INVALID_ARGUMENT,
                         "INVALID_DISPLAY_NAME",
                         ps.CreatePlayerRequest(display_name=blank))
        for bad in ("a\x00b", "a\x1bb", "a\u0085b"[0:1] + "\u0090"):
            expect_error(self, srv.players.CreatePlayer,
                         grpc.StatusCode.INVALID_ARGUMENT,
                         "INVALID_DISPLAY_NAME",
                         ps.CreatePlayerRequest(display_name=bad))
        self.assertTrue(create_player("").player.guest)

    def test_invalid_utf8_is_invalid_argument(self):
        # Python's protobuf refuses to build such a message, so the bytes
        # go out as they are: field 1 (display_name) = C3 28.
        raw = srv.channel.unary_unary(
            "/mancala.v1.PlayerService/CreatePlayer",
            request_serializer=lambda b: b,
            response_deserializer=ps.CreatePlayerResponse.FromString)
        expect_error(self, raw, grpc.StatusCode.INVALID_ARGUMENT,
                     "INVALID_UTF8", b"\x0a\x02\xc3\x28")
        # The callback API answers unparsed bytes UNIMPLEMENTED, as it
        # does a method the server lacks: that one stays UNIMPLEMENTED.
        lacking = srv.channel.unary_unary(
            "/mancala.v1.PlayerService/NoSuchMethod",
            request_serializer=lambda b: b,
            response_deserializer=lambda b: b)
        with self.assertRaises(grpc.RpcError) as caught:
            lacking(b"\x0a\x02\xc3\x28")
        self.assertEqual(caught.exception.code(),
                         grpc.StatusCode.UNIMPLEMENTED)


class EveryStringIsBoundedTest(unittest.TestCase):
    def test_every_request_string_field_documents_a_limit(self):
        # The kind: any string a client can send has a max_chars in the
        # proto (and repeated fields a max_entries), read by the server.
        missing = []

        def walk(desc, path, seen):
            if desc.full_name in seen:
                return
            seen.add(desc.full_name)
            for f in desc.fields:
                opts = f.GetOptions()
                if f.type == f.TYPE_STRING and not opts.Extensions[
                        field_limits_pb2.max_chars]:
                    missing.append(path + f.name)
                if f.message_type is not None:
                    if f.message_type.GetOptions().map_entry:
                        if not opts.Extensions[field_limits_pb2.max_chars]:
                            missing.append(path + f.name)
                    elif f.message_type.file.package == "mancala.v1":
                        walk(f.message_type, path + f.name + ".", seen)
                if (f.label == f.LABEL_REPEATED and f.message_type
                        is not None and not opts.Extensions[
                            field_limits_pb2.max_entries]):
                    missing.append(path + f.name + "[]")

        for module in (ad, ms, mm, ps, rs):
            for service in module.DESCRIPTOR.services_by_name.values():
                for method in service.methods:
                    walk(method.input_type, method.input_type.name + ".",
                         set())
        self.assertEqual(missing, [])

    def test_oversized_input_is_refused_briefly(self):
        p = harness.Player(*(lambda r: (r.player.name, r.token, ""))(
            create_player("Zed")))
        huge = "z" * 4096
        cases = [
            (srv.matches.GetMatch, ms.GetMatchRequest(name="matches/" + huge),
             "name"),
            (srv.matches.JoinMatch, ms.JoinMatchRequest(invite_code=huge),
             "invite_code"),
            (srv.players.GetPlayer, ps.GetPlayerRequest(name="players/" + huge),
             "name"),
            (srv.ratings.GetRating, rs.GetRatingRequest(name=huge), "name"),
            (srv.matches.CreateMatch, ms.CreateMatchRequest(
                game=game_pb2.KALAH, options={huge: "4"}), "options.key"),
            (srv.matches.CreateMatch, ms.CreateMatchRequest(
                game=game_pb2.KALAH, options={"seeds": huge}),
             "options.value"),
            (srv.matches.CreateMatch, ms.CreateMatchRequest(
                game=game_pb2.KALAH, options={str(i): "x" for i in range(17)}),
             "options"),
            (srv.matches.CreateMatch, ms.CreateMatchRequest(
                game=game_pb2.KALAH,
                seats=[ms.Seat(kind=ms.Seat.PLAYER, player=huge)]),
             "seats[0].player"),
            (srv.matches.SubmitMove, ms.SubmitMoveRequest(
                name="matches/x", request_id="r" * 65), "request_id"),
            (srv.matchmaking.FindMatch, mm.FindMatchRequest(
                game=game_pb2.KALAH, options={"seeds": huge}),
             "options.value"),
            (srv.ratings.ListLeaderboard, rs.ListLeaderboardRequest(
                game=game_pb2.KALAH, page_token=huge), "page_token"),
            (srv.admin.VoidMatch, ad.VoidMatchRequest(
                name="matches/x", reason="r" * 1001), "reason"),
        ]
        for method, request, field in cases:
            with self.subTest(field=field):
                # Checked first: before the token (none is sent here).
                err, info = expect_error(self, method,
                                         grpc.StatusCode.INVALID_ARGUMENT,
                                         "FIELD_TOO_LONG", request)
                self.assertEqual(info.metadata["field"], field)
                self.assertNotIn("zzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz",
                                 err.details())

    def test_errors_quote_a_short_prefix(self):
        name = "matches/" + "q" * 90  # Within the limit, but no match.
        err, _ = expect_error(self, srv.matches.GetMatch,
                              grpc.StatusCode.NOT_FOUND, "MATCH_NOT_FOUND",
                              ms.GetMatchRequest(name=name))
        self.assertNotIn("q" * 33, err.details())
        err, _ = expect_error(self, srv.matches.GetMatch,
                              grpc.StatusCode.INVALID_ARGUMENT,
                              "INVALID_NAME",
                              ms.GetMatchRequest(name="games/" + "q" * 90))
        self.assertNotIn("q" * 33, err.details())


if __name__ == "__main__":
    unittest.main()
