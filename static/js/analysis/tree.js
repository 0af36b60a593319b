/*
 * The analysis board's variations as a tree, with a cursor on the position shown. Pure: no
 * page, no server; static/js/analysis/analysis.js draws it, tests import it in a browser.
 *
 *   import {VariationTree} from "./tree.js";
 *   const tree = VariationTree.fromLine([[7, 7], [8, 8]]);  // the cursor at the line's end
 *   tree.back();                     // to the position after [7, 7]
 *   tree.play([6, 6]);               // a move other than the next one: a new branch
 *   tree.variations();               // [[8, 8], [6, 6]]: the moves from here, the main one first
 *   tree.choose(1); tree.remove(0);  // follow a branch; delete one (with all below it)
 *   tree.line();                     // the moves from the empty board to the cursor
 *   tree.addLine([[9, 9], [10, 10]]); // a line from the cursor, which stays (the engine's)
 *
 * A move is a [row, col] pair. A node's first child is its main continuation: `forward` and
 * `toEnd` follow it, and a move played where none was becomes it.
 */

function node(move, parent) {
  return {move: move, parent: parent, children: []};
}

const same = (a, b) => a[0] === b[0] && a[1] === b[1];

export class VariationTree {
  constructor() {
    this.root = node(null, null);
    this.current = this.root;
  }

  /** A tree of one line, the cursor at its end. */
  static fromLine(moves) {
    const tree = new VariationTree();
    for (const move of moves) tree.play(move);
    return tree;
  }

  /** Plays `move` from the cursor: the existing branch if one starts with it, else a new one
      (after the others). Returns the node now under the cursor. */
  play(move) {
    let child = this.current.children.find((c) => same(c.move, move));
    if (!child) {
      child = node([move[0], move[1]], this.current);
      this.current.children.push(child);
    }
    this.current = child;
    return child;
  }

  /** Adds `moves` as a line from the cursor (along existing branches where they agree),
      leaving the cursor where it was. */
  addLine(moves) {
    const from = this.current;
    for (const move of moves) this.play(move);
    this.current = from;
  }

  /** One move back; false at the empty board. */
  back() {
    if (!this.current.parent) return false;
    this.current = this.current.parent;
    return true;
  }

  /** One move forward along the main continuation; false at its end. */
  forward() {
    if (this.current.children.length === 0) return false;
    this.current = this.current.children[0];
    return true;
  }

  toStart() {
    this.current = this.root;
  }

  /** To the end of the main continuation from the cursor. */
  toEnd() {
    while (this.forward()) { /* follow the first child */ }
  }

  /** The moves that continue from the cursor, main continuation first. */
  variations() {
    return this.current.children.map((c) => c.move);
  }

  /** Follows the `index`th continuation; false when there is none. */
  choose(index) {
    const child = this.current.children[index];
    if (!child) return false;
    this.current = child;
    return true;
  }

  /** Deletes the `index`th continuation and everything below it; false when there is none. */
  remove(index) {
    if (index < 0 || index >= this.current.children.length) return false;
    this.current.children.splice(index, 1);
    return true;
  }

  /** The nodes from the first move to the cursor. */
  path() {
    const nodes = [];
    for (let at = this.current; at.parent; at = at.parent) nodes.unshift(at);
    return nodes;
  }

  /** The moves from the empty board to the cursor. */
  line() {
    return this.path().map((n) => n.move);
  }

  /** The nodes after the cursor along the main continuation. */
  continuation() {
    const nodes = [];
    for (let at = this.current.children[0]; at; at = at.children[0]) nodes.push(at);
    return nodes;
  }

  /** Moves the cursor to `target`, a node of this tree. */
  goTo(target) {
    this.current = target;
  }

  get depth() {
    return this.path().length;
  }
}
