// A move's events (mancala.v1.MoveEvent) as steps on a board, so the page
// can show the seeds moving pit by pit. Pure: no DOM, tested in Node
// (tests/clients/web/page_test.mjs).
//
// A board here is { sides: [{ pits: number[], store: number }] }, one side
// per seat, as mancala.v1.Board. A place is { seat, pit } with pit -1 for
// the seat's store (mancala.v1.Place).

/** A copy of a mancala.v1.Board that steps can change. */
export function copyBoard(board) {
  return {
    sides: (board?.sides ?? []).map((s) => ({ pits: [...s.pits], store: s.store })),
  };
}

function add(board, place, n) {
  const side = board.sides[place.seat];
  if (!side) return;
  if (place.pit < 0) side.store += n;
  else if (place.pit < side.pits.length) side.pits[place.pit] += n;
}

/**
 * The steps of a move: each `{ board, place, kind, text }` is the board
 * just after one event that moves seeds, with the place it touched (for a
 * highlight); events that move none (EXTRA_TURN, FINISH...) give a step
 * with the board unchanged and a `text` to show. The last board is the
 * position after the move.
 * @param {{ sides: { pits: number[], store: number }[] }} before
 * @param {Array<{ type: number, seat: number, place?: { seat: number, pit: number },
 *                 count: number, rank: number }>} events
 * @param {Record<string, number>} Type  mancala.v1.MoveEvent_Type
 */
export function sowSteps(before, events, Type) {
  const board = copyBoard(before);
  const steps = [];
  const step = (kind, place, text = "") =>
    steps.push({ kind, place, text, board: copyBoard(board) });
  for (const e of events) {
    const place = e.place ?? { seat: e.seat, pit: -1 };
    switch (e.type) {
      case Type.PICK_UP:
        add(board, place, -e.count);
        step("pick-up", place);
        break;
      case Type.DROP:
        add(board, place, 1);
        step("drop", place);
        break;
      case Type.CAPTURE:
        add(board, place, -e.count);
        add(board, { seat: e.seat, pit: -1 }, e.count);
        step("capture", place, `captures ${e.count}`);
        break;
      case Type.SWEEP:
        add(board, place, -e.count);
        add(board, { seat: place.seat, pit: -1 }, e.count);
        step("sweep", place, `${e.count} to the store`);
        break;
      case Type.EXTRA_TURN:
        step("extra-turn", undefined, "extra turn");
        break;
      case Type.GRAND_SLAM_NULLIFIED:
        step("note", undefined, "grand slam: no capture");
        break;
      case Type.FINISH:
        step("note", undefined, `finished, rank ${e.rank}`);
        break;
      case Type.RESIGN:
        step("note", undefined, "resigned");
        break;
      default:
        break;
    }
  }
  return steps;
}

/** Whether two boards hold the same seeds everywhere. */
export function sameBoard(a, b) {
  const x = copyBoard(a);
  const y = copyBoard(b);
  return JSON.stringify(x) === JSON.stringify(y);
}
