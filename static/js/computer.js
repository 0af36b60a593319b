/*
 * The computer's own page (templates/play/computer.html): a plain form POSTed to the server;
 * this only keeps the opening rules on offer to those the chosen ruleset allows, as the
 * hall's panel does. Without it the form still works: the server refuses a wrong pairing.
 */

import {followRuleset} from "./opening_choice.js";
import {$} from "./page.js";

const ruleset = $("computer-ruleset");
if (ruleset) followRuleset(ruleset, $("computer-opening"));
