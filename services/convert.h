// Conversions between the engine's values and the mancala.v1 messages.
// Pure functions; no I/O.

#ifndef MANCALA_SERVICES_CONVERT_H_
#define MANCALA_SERVICES_CONVERT_H_

#include <optional>
#include <string>

#include "engine/events.h"
#include "engine/state.h"
#include "mancala/v1/game.pb.h"

namespace mancala::services {

// Engine wire name ("kalah") of a proto game; nullopt for
// GAME_UNSPECIFIED or unknown values.
std::optional<std::string> GameName(v1::Game game);
// Proto game of an engine wire name; GAME_UNSPECIFIED if unknown.
v1::Game GameFromName(const std::string& name);

void ToProto(const engine::Board& board, v1::Board* out);
void ToProto(const engine::Event& event, v1::MoveEvent* out);
// The result of a finished game (state.is_over()).
void ResultToProto(const engine::State& state, v1::Result* out);

}  // namespace mancala::services

#endif  // MANCALA_SERVICES_CONVERT_H_
