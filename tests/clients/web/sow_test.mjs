// The page's steps of a move (clients/web/page/sow.js), from the events
// mancalad sends, against boards worked out by hand from docs/rules.md.

import { describe, it } from "node:test";
import assert from "node:assert/strict";

import { copyBoard, sowSteps } from "../../../clients/web/page/sow.js";

// mancala.v1.MoveEvent.Type's numbers (game.proto).
const Type = {
  PICK_UP: 1,
  DROP: 2,
  CAPTURE: 3,
  GRAND_SLAM_NULLIFIED: 4,
  EXTRA_TURN: 5,
  FINISH: 6,
  RESIGN: 7,
  SWEEP: 8,
  GAME_OVER: 9,
};
const at = (seat, pit) => ({ seat, pit });
const kalahStart = () => ({
  sides: [
    { pits: [4, 4, 4, 4, 4, 4], store: 0 },
    { pits: [4, 4, 4, 4, 4, 4], store: 0 },
  ],
});

describe("sowSteps", () => {
  it("Kalah pit 2 (the third): four seeds to pits 3, 4, 5 and the store, an extra turn", () => {
    const before = kalahStart();
    const events = [
      { type: Type.PICK_UP, seat: 0, place: at(0, 2), count: 4 },
      { type: Type.DROP, seat: 0, place: at(0, 3) },
      { type: Type.DROP, seat: 0, place: at(0, 4) },
      { type: Type.DROP, seat: 0, place: at(0, 5) },
      { type: Type.DROP, seat: 0, place: at(0, -1) },
      { type: Type.EXTRA_TURN, seat: 0 },
    ];
    const steps = sowSteps(before, events, Type);
    assert.deepEqual(
      steps.map((s) => s.kind),
      ["pick-up", "drop", "drop", "drop", "drop", "extra-turn"],
    );
    assert.deepEqual(steps[0].board.sides[0].pits, [4, 4, 0, 4, 4, 4]);
    assert.deepEqual(steps[1].board.sides[0].pits, [4, 4, 0, 5, 4, 4]);
    assert.deepEqual(steps[1].place, at(0, 3));
    assert.deepEqual(steps.at(-1).board, {
      sides: [
        { pits: [4, 4, 0, 5, 5, 5], store: 1 },
        { pits: [4, 4, 4, 4, 4, 4], store: 0 },
      ],
    });
    assert.equal(steps.at(-1).text, "extra turn");
    // The board given is not changed.
    assert.deepEqual(before, kalahStart());
  });

  it("a capture moves the seeds of the pit it names into the capturer's store", () => {
    // Kalah: seat 0 sows one seed from pit 0 into its empty pit 1, opposite
    // seat 1's pit 4 (6 seeds): 6 + 1 to seat 0's store (K.6).
    const before = {
      sides: [
        { pits: [1, 0, 4, 4, 4, 4], store: 3 },
        { pits: [4, 4, 4, 4, 6, 4], store: 2 },
      ],
    };
    const steps = sowSteps(
      before,
      [
        { type: Type.PICK_UP, seat: 0, place: at(0, 0), count: 1 },
        { type: Type.DROP, seat: 0, place: at(0, 1) },
        { type: Type.CAPTURE, seat: 0, place: at(1, 4), count: 6 },
        { type: Type.CAPTURE, seat: 0, place: at(0, 1), count: 1 },
      ],
      Type,
    );
    assert.deepEqual(steps.at(-1).board, {
      sides: [
        { pits: [0, 0, 4, 4, 4, 4], store: 10 },
        { pits: [4, 4, 4, 4, 0, 4], store: 2 },
      ],
    });
    assert.equal(steps[2].text, "captures 6");
  });

  it("a sweep goes to the owner of the pit, whoever moved", () => {
    const before = {
      sides: [
        { pits: [0, 0, 0, 0, 0, 1], store: 20 },
        { pits: [2, 0, 3, 0, 0, 0], store: 22 },
      ],
    };
    const steps = sowSteps(
      before,
      [
        { type: Type.PICK_UP, seat: 0, place: at(0, 5), count: 1 },
        { type: Type.DROP, seat: 0, place: at(0, -1) },
        { type: Type.SWEEP, seat: 0, place: at(1, 0), count: 2 },
        { type: Type.SWEEP, seat: 0, place: at(1, 2), count: 3 },
        { type: Type.GAME_OVER, seat: 0 },
      ],
      Type,
    );
    assert.equal(steps.length, 4, "GAME_OVER moves nothing and says nothing");
    assert.deepEqual(steps.at(-1).board, {
      sides: [
        { pits: [0, 0, 0, 0, 0, 0], store: 21 },
        { pits: [0, 0, 0, 0, 0, 0], store: 27 },
      ],
    });
  });

  it("copyBoard copies 2-4 sides and tolerates no board", () => {
    const b = { sides: [0, 1, 2].map((i) => ({ pits: [i, i], store: i })) };
    const c = copyBoard(b);
    c.sides[2].pits[0] = 9;
    assert.equal(b.sides[2].pits[0], 2);
    assert.deepEqual(copyBoard(undefined), { sides: [] });
  });
});
