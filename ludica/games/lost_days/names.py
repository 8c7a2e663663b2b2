"""Lost Days' names for people: elves by name, memories by their words ("I remember the silver
lake"), the King and the Market of Memories, bids and conflicts in the book's terms.

Used by every front end through the game's :meth:`namer` (see :mod:`ludica.core.names`).
"""

from __future__ import annotations

import re
from typing import Any

from ...core import Action
from ...core.names import Namer, counted, listing
from .state import (
    CENTRE,
    EPILOGUE,
    GAME_OVER,
    INFLUENCE,
    KING_TIE,
    MARKET,
    NARRATE_TRIBUTE,
    NARRATION,
    OPPOSITION,
    OUTCOME,
    OWNED,
    PLACE_TRIBUTE,
    ROLL,
    ROLL_OFF,
    SCENE,
    SEALED_BID,
    SELECT,
    SESSION,
    SET_ASIDE,
    STAKES,
    STRAIN_AND_GAIN,
    TIE_RAISE,
    TRADE,
    TRIBUTE,
    WRITING,
    LostDaysState,
)

QUOTE = 48
"""How much of a memory's text names it (the rest is on its card)."""

ACTION_TITLES = {
    "write_memory": "Write a memory",
    "create_memory": "Create a memory",
    "approve_memory": "Approve the memory",
    "veto_memory": "Veto the memory",
    "place_bid": "Place a sealed bid",
    "raise_bid": "Raise your bid",
    "decline_raise": "Do not raise",
    "start_session": "Open the story",
    "frame_scene": "Frame the scene",
    "frame_conflict": "Frame a conflict",
    "agree_stakes": "Agree to the stakes",
    "withdraw_conflict": "Withdraw from the conflict",
    "narrate_memory": "Bring a memory into the conflict",
    "bring_staked_memory": "Bring the staked memory",
    "done_narrating": "Done bringing memories",
    "influence": "Influence the dice",
    "end_influence_turn": "End your influence",
    "take_strain": "Take the strain",
    "narrate_outcome": "Narrate the outcome",
    "take_gain": "Take the gain",
    "decline_gain": "Decline the gain",
    "pay_tribute": "Pay tribute from",
    "pay_tribute_memory": "Pay tribute with a memory",
    "place_tribute": "Place the tribute",
    "narrate_tribute": "Narrate the tribute",
    "sell_memory": "Sell a memory to the Market",
    "select_memory": "Choose a memory",
    "offer_memory": "Offer a memory",
    "ask_memory": "Ask for a memory",
    "propose_trade": "Propose a deal",
    "accept_trade": "Accept the deal",
    "decline_trade": "Decline the deal",
    "end_scene": "End the scene",
    "restart_story": "Start the story again",
}

PARAM_LABELS = {
    "side_a": "who frames (side A)",
    "side_b": "against (side B)",
    "staked_memory": "memory at stake",
    "memory": "memory",
    "dest": "put the coin on",
    "source": "take the coin from",
    "pay_with": "pay with",
    "effect": "effect",
    "side": "side",
    "die": "die",
    "to": "to",
    "give_coins": "coins you give",
    "get_coins": "coins you get",
    "amount": "coins",
    "kingship": "a Memory of Kingship",
}

VALUE_NAMES = {
    "purse": "your purse",
    "none": "none",
    "opposition": "the opposition (another player's side)",
    "reroll": "reroll a die",
    "extra_die": "add a die",
    "a": "side A",
    "b": "side B",
    "king": "the King",
    "centre": "the table",
    "market": "the Market of Memories",
}


ACTION_EFFECTS = {
    "accept_trade": "the coins and memories offered change hands as written",
    "decline_trade": "nothing changes hands",
    "decline_raise": "you drop out of the tie: the others may raise",
    "withdraw_conflict": "the Conflict is not fought",
    "end_scene": "the scene ends",
    "decline_gain": "you take nothing from this Conflict",
    "end_influence_turn": "you spend nothing more this turn; the other side may still influence the dice",
    "offer_memory": "it goes into what you offer in the deal",
    "ask_memory": "it goes into what you ask for in the deal",
    "frame_scene": "the scene is framed: say where it happens and who is there",
}
"""What a one-button action does."""

SCENE_KINDS = {
    "PERSONAL": "a personal scene",
    "STORY": "a story scene",
    "INTERRUPT": "an interrupting scene",
    "WRITE_OUT": "the scene that writes out a mad character",
    "ADVERSITY": "a scene of adversity",
}
"""A scene's kind in words [Framing Scenes]."""

INFLUENCE_EFFECTS = {
    ("side", "a"): "each coin spent adds a die to this side or rerolls one of its dice",
    ("side", "b"): "each coin spent adds a die to this side or rerolls one of its dice",
    ("pay_with", "purse"): "costs 1 coin from your purse (it goes onto the memory at stake, if any)",
    ("pay_with", "opponent_madness"): "costs 1 of your opponent's madness coins (back to the bank)",
    ("pay_with", "own_madness"): "costs 1 of your own madness coins (back to the bank)",
    ("effect", "extra_die"): "one more die for that side",
    ("effect", "reroll"): "one die of that side is rolled again",
}
"""What influencing a conflict does and costs ([Influencing a Conflict], LD-R18)."""

BID_EFFECT = (
    "if highest, you buy the memory with your {n} (they go onto it as its value); else they come back; "
    "only you see the bid until all bids are in; a tie is raised in the open"
)
"""What a bid of ``n`` (its coins, "1 coin", "5 coins") does ([Creating Memories], LD-R3), what it costs first."""

RAISE_EFFECT = (
    "if highest, you buy the memory with your {n} (they go onto it as its value); else they come back; "
    "said in the open: every player sees it"
)
"""What a raise of a tied bid to ``n`` (its coins) does ([Creating Memories], LD-R3: a tie is raised in the open)."""

PHASE_WORDS = {
    WRITING: "you write the memories of this round",
    SELECT: "you choose the next memory to auction",
    SEALED_BID: "everyone bids for the memory in secret",
    TIE_RAISE: "the tied bidders raise in the open or drop out",
    ROLL_OFF: "a roll decides between the tied bidders",
    KING_TIE: "the tie for the crown is settled",
    SESSION: "the story opens",
    SCENE: "the scene goes on",
    TRADE: "the deal is answered",
    STAKES: "both sides agree to the stakes",
    NARRATION: "each side brings memories into the conflict",
    ROLL: "the dice of the conflict are rolled",
    INFLUENCE: "each side may spend coins to influence the dice",
    OUTCOME: "the winner narrates the outcome",
    TRIBUTE: "the loser pays tribute",
    PLACE_TRIBUTE: "the tribute is placed",
    NARRATE_TRIBUTE: "the tribute is narrated",
    STRAIN_AND_GAIN: "strain and gain are taken",
    EPILOGUE: "the epilogue is told",
    GAME_OVER: "the game ends",
}
"""What comes next in a phase, said after "then" (the book's steps, never the phase's id)."""

PLACES = {
    CENTRE: "goes onto the table",
    SET_ASIDE: "is set aside",
    MARKET: "goes to the Market of Memories",
    OWNED: "is owned now",
}
"""Where a memory goes, said in a consequence."""

VIEW_WORDS = {
    "purse": "purse",
    "memory_coins": "coins on memories",
    "to_write": "memories still to write",
    "scenes_played": "scenes played",
    "madness": "madness coins",
    "bank_out": "coins out of the bank",
}
"""How a consequence calls the keys of the view."""

_COINS_FOR = re.compile(r"\b(\d+) coins for (\d+)\b(?! coin)")
"""A deal's story line "offers Ann 3 coins for 0": the second number is coins too."""
_SEAL = re.compile(r" ?\(sealed-bid:[^()]*\)")
_BID = re.compile(r"\byou bid (\d+)(?= \(sealed\))")


def _number(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _coins(n: Any) -> list[str]:
    """``3`` -> ``["3 coins"]``; no coins -> ``[]``."""
    return [f"{n} coin{'' if n == 1 else 's'}"] if isinstance(n, int) and n > 0 else []


_DEAL = re.compile(
    r"deal offered by (\S+): give coins (\d+); get coins (\d+); give memories (.+?); get memories (.+?); step (\w+)$"
)
"""The deal's terms as the text face writes them (the proposer gives, gets; the step it is at)."""
DEAL_STEPS = {"offer": "still being put together", "ask": "still being put together", "answer": "to be answered"}


PRICED = frozenset(
    {
        "sell_memory",
        "pay_tribute",
        "pay_tribute_memory",
        "narrate_memory",
        "offer_memory",
        "ask_memory",
        "select_memory",
    }
)
"""The choices among memories whose options say each memory's coins (its value) beside its words."""


def _coins_said(n: Any) -> str:
    return f"{n} coin{'' if n == 1 else 's'}"


def _deal_said(m: re.Match[str]) -> str:
    """A deal in words: "deal offered by p2: p2 gives 2 coins and asks for m4 (to be answered)"."""
    who, give_coins, get_coins, give_memories, get_memories, step = m.groups()

    def things(coins: str, memories: str) -> str:
        said = [f"{coins} coin{'' if coins == '1' else 's'}"] if coins != "0" else []
        said += [] if memories == "none" else [memories]
        return " and ".join(said)

    gives, asks = things(give_coins, give_memories), things(get_coins, get_memories)
    terms = f"{who} gives {gives or 'nothing'}" + (f" and asks for {asks}" if asks else ", asking nothing")
    return f"deal offered by {who}: {terms} ({DEAL_STEPS.get(step, step)})"


class LostDaysNamer(Namer):
    ACTION_TITLES = ACTION_TITLES
    PARAM_LABELS = PARAM_LABELS
    VALUE_NAMES = VALUE_NAMES
    state: LostDaysState

    # -- computed consequences in the book's words (DESIGN.md principle 16) ----------------------
    QUIET_KEYS = Namer.QUIET_KEYS | {
        "auction",  # a bid's effect and "then … decides" say the auction
        "trade",  # the deal is said by the option's effect and the page's situation
        "agreement",
        "mok_written",
        "won_this_round",
        "pending_write_out",
        "framed",
        "conflict_held",
        "last_of_cycle",
        "story_restarted",
        "controller_b",
        "narrate_turn",
        "influence_turn",
        "passes",
        "spend",
        "spends",
        "leading",
        "done",
        "author",
        "origin",
        "is_mok",
        "session",
        "owner",  # the players' lists of memories say who gains and loses one
        "extra_writer",
        "margin",
        "owed",
        "paid",
        "to_place",
        "tribute_paid",
        "offered",
        "vetoed",
        "brought",
        "gain_left",
        "strain_left",
        "side_a",
        "opposition",
    }
    PHASE_WORDS = PHASE_WORDS
    VIEW_WORDS = VIEW_WORDS

    def word_change(self, change: Any) -> str | None:
        """Memories by their words and where they go, the King, the scene and the conflict in the
        book's terms ("“I remember…” goes to the Market of Memories", "Bob frames the next scene")."""
        path, key = change.path, change.key
        if len(path) >= 2 and path[0] == "players" and key == "king":
            return None  # the King's seat says it
        if path == ("king",):
            if change.after is None:
                return "no one is King now"
            return f"{self.seat(str(change.after))} becomes King"
        if path == ("selector",) and isinstance(change.after, str):
            return f"{self.seat(change.after)} chooses the next memory to auction"
        if path == ("theme",) and isinstance(change.after, str):
            return f"the next memories are about {change.after}"
        if path == ("memories",) and isinstance(change.after, dict):
            text = change.after.get("text")
            kind = "a new Memory of Kingship" if change.after.get("kingship") else "a new memory"
            return f"{kind} “{text}”" if isinstance(text, str) and text not in ("", "…") else kind
        if path == ("selector",) and change.after is None:
            return None
        if path[:1] == ("memories",) and len(path) >= 3:
            entry = self._found.entry(path) if self._found is not None else None
            named = self.memory(entry) if isinstance(entry, str) else "the memory"
            if key == "place" and isinstance(change.after, str):
                return f"{named} {PLACES.get(change.after, 'moves')}"
            if key == "value" and _number(change.after):
                coins = "coin" if change.after == 1 else "coins"
                return f"{named} is worth {change.after} {coins} (was {change.before or 0})"
            if key in ("tainted", "kingship") and isinstance(change.after, bool):
                what = "tainted" if key == "tainted" else "a Memory of Kingship"
                return f"{named} is {'now' if change.after else 'no longer'} {what}"
        if path[:1] == ("scene",) and key == "framer" and isinstance(change.after, str):
            return f"{self.seat(change.after)} frames the next scene"
        if path[:1] == ("scene",) and key == "kind" and isinstance(change.after, str):
            return f"it is {SCENE_KINDS.get(change.after, 'a scene')}"
        if path[:1] == ("conflict",):
            return self._conflict_change(path, key, change)
        if key == "mad" and isinstance(change.after, bool) and path[:1] == ("players",):
            owner = self._owner(path, self._found)
            who = "you go" if owner in (None, self.viewer) else f"{self.seat(str(owner))} goes"
            return f"{who} mad" if change.after else f"{who} sane again"
        if path[:1] == ("king_tie",):
            if self.is_seat(key) and change.delta:
                who = "your" if key == self.viewer else f"{self.seat(key)}'s"
                return f"{who} raise for the crown +{change.delta}"
            return None  # the tie for the crown is the page's situation
        return super().word_change(change)

    def _conflict_change(self, path: tuple[str, ...], key: str, change: Any) -> str | None:
        """The conflict's bookkeeping said as what happens in it; ``None``: said elsewhere."""
        if path == ("conflict",) or len(path) == 1:
            return None
        if key == "side_b" and change.after is None:
            return "the conflict is over"
        if change.after is None or (path[1] in ("narrated", "dice") and not change.added):
            return None  # the conflict's bookkeeping goes with it
        if key == "side_b" and isinstance(change.after, str):
            b = "the opposition" if change.after == OPPOSITION else self.seat(change.after)
            return f"a conflict against {b}"
        if key == "staked":
            return f"{self.memory(str(change.after))} is at stake" if isinstance(change.after, str) else None
        if key == "stakes" and isinstance(change.after, str):
            return "the stakes are written"
        if key == "winner":
            return f"side {change.after.upper()} wins the conflict" if change.after in ("a", "b") else None
        if key == "framer":
            return None
        if len(path) >= 3 and path[1] == "dice" and (change.added or change.removed):
            side = self.value("influence", "side", path[2])
            return f"{side} dice: {self._item('die', change.after)}"
        if len(path) >= 3 and path[1] == "narrated" and change.added:
            side = self.value("influence", "side", path[2])
            return f"{listing([self.memory(str(m)) for m in change.added])} brought into the conflict for {side}"
        return super().word_change(change)

    def memory(self, mid: str) -> str:
        """A memory by the start of its words, in quotation marks."""
        m = self.state.memories.get(mid)
        if m is None:
            return "a memory"
        text = m.text if len(m.text) <= QUOTE else m.text[: QUOTE - 1].rstrip() + "…"
        return f"“{text}”"

    def say(self, text: str) -> str:
        """A sealed bid's seal (``sealed-bid:p2:m4:5``, the secret's token) is for programs: the
        bidder reads "you bid 5 coins (sealed)"."""
        text = _SEAL.sub(" (sealed)", text)
        text = _DEAL.sub(_deal_said, text)
        text = _COINS_FOR.sub(r"\1 coins for \2 coins", text)
        text = _BID.sub(lambda m: f"you bid {m.group(1)} coin{'' if m.group(1) == '1' else 's'}", text)
        return super().say(text)

    def action_effect(self, action: Action) -> str | None:
        if action.type == "influence":
            a = action.args
            side = self.value("influence", "side", a.get("side"))
            what = f"rerolls a die of {side}" if a.get("effect") == "reroll" else f"adds a die to {side}"
            return f"{what}; {INFLUENCE_EFFECTS.get(('pay_with', str(a.get('pay_with'))), 'costs 1 coin')}"
        if action.type in ("narrate_memory", "bring_staked_memory", "approve_memory", "veto_memory"):
            return self._memory_dice(action)
        return ACTION_EFFECTS.get(action.type)

    def _memory_dice(self, action: Action) -> str | None:
        """What a memory brought into the conflict is worth in dice (spec §4.3, §4.4: a side rolls
        the sum of the values of its approved memories, and the staked memory if brought)."""
        st, conflict = self.state, self.state.conflict
        if conflict is None:
            return None
        mid = conflict.offered if action.type in ("approve_memory", "veto_memory") else action.args.get("memory")
        if action.type == "bring_staked_memory":
            mid = conflict.staked
        if not isinstance(mid, str) or mid not in st.memories:
            return None
        n = st.value(mid)
        dice = f"{n} {'die' if n == 1 else 'dice'}"
        if action.type == "narrate_memory":
            return f"if the other side approves, it adds {dice} (its value) to your side's roll; a veto adds none"
        if action.type == "bring_staked_memory":
            return f"the memory at stake adds {dice} (its value) to your side's roll, without approval"
        if action.type == "approve_memory":
            return f"it adds {dice} (its value) to the other side's roll"
        return "it adds no dice to the other side's roll"

    def effect(self, kind: str, param: str, value: Any) -> str | None:
        if kind == "place_bid" and param == "amount":
            return BID_EFFECT.format(n=_coins_said(value))
        if kind == "raise_bid" and param == "amount":
            return RAISE_EFFECT.format(n=_coins_said(value))
        if kind == "influence":
            return INFLUENCE_EFFECTS.get((param, str(value)))
        return None

    def ids(self) -> dict[str, str]:
        out = super().ids()
        out.update({mid: self.memory(mid) for mid in self.state.memories})
        return out

    def value(self, kind: str, param: str, value: Any) -> str:
        if isinstance(value, str) and value in self.state.memories:
            worth = self.state.value(value)
            if kind in PRICED and worth:  # memories alike in their first words told apart by their value
                return f"{self.memory(value)} ({_coins_said(worth)} on it)"
            return self.memory(value)
        conflict = self.state.conflict
        if conflict is not None and value in ("a", "b"):  # a side of the conflict, by who is on it
            return f"{VALUE_NAMES[value]} ({self.say(conflict.side_a if value == 'a' else conflict.side_b)})"
        if param == "die" and isinstance(value, int):
            return f"die {value + 1}"
        return super().value(kind, param, value)

    # -- the situation (issue 20: what the pending decision is about) --------------------------
    def situation(self) -> str | None:
        """The conflict being fought, the auction under way, the deal on the table, the tie for
        the crown or the theme of the memories being written: said at the top of the page."""
        st = self.state
        if st is None:
            return None
        if st.conflict is not None:
            return self._conflict_situation()
        if st.trade is not None:
            return self._trade_situation()
        if st.auction is not None and st.phase in (SEALED_BID, TIE_RAISE, ROLL_OFF):
            return self._auction_situation()
        if st.king_tie is not None and st.phase == KING_TIE:
            owners = listing([self.seat(s) for s in st.king_tie.owners])
            return f"The crown is tied: {owners} own Memories of Kingship of the same value; the highest becomes King"
        if st.phase == WRITING and st.theme:
            return f"Round {st.round} of memory creation: write {st.theme}"
        if st.scene is not None:
            kind = SCENE_KINDS.get(st.scene.kind, "a scene")
            return f"{self.seat(st.scene.framer)} frames {kind}"
        return None

    def _conflict_situation(self) -> str:
        c = self.state.conflict
        assert c is not None  # asked only while a conflict is fought
        a = self.seat(c.side_a)
        b = "the opposition" if c.side_b == OPPOSITION else self.seat(c.side_b)
        said = f"The conflict: {a} against {b}"
        if c.stakes:
            said += f" — at stake: “{c.stakes}”"
        if c.staked:
            said += f" (the memory {self.memory(c.staked)} is staked)"
        return said

    def _trade_situation(self) -> str:
        deal = self.state.trade
        assert deal is not None  # asked only while a deal is offered
        content = deal.content
        to = listing([self.seat(s) for s in deal.voters])
        give = [*_coins(content.get("give_coins")), *[self.memory(m) for m in content.get("give_memories", [])]]
        get = [*_coins(content.get("get_coins")), *[self.memory(m) for m in content.get("get_memories", [])]]
        gives, gets = listing(give) or "nothing", listing(get) or "nothing"
        return f"{self.seat(deal.proposer)} offers {to} a deal: gives {gives} for {gets}"

    def _auction_situation(self) -> str:
        auction = self.state.auction
        assert auction is not None  # asked only during an auction
        lot = self.memory(auction.lot)
        if self.state.phase == TIE_RAISE:
            tied = listing([self.seat(s) for s in auction.still_in or auction.tied])
            high = counted(auction.high, "coin", "coins")
            return f"The auction of {lot}: {tied} tied at {high}; each may raise or drop out"
        if self.state.phase == ROLL_OFF:
            return f"The auction of {lot}: a roll decides between {listing([self.seat(s) for s in auction.rolloff])}"
        return f"The auction of {lot}: everyone bids in secret; the highest bid buys the memory"

    def sentence(self, action: Action) -> str:
        who, a = self.seat(action.seat), action.args
        if action.type == "frame_conflict":
            staked = a.get("staked_memory")
            stake = f", staking {self.memory(staked)}" if isinstance(staked, str) and staked != "none" else ""
            return f"{who} frames a conflict against {self.value(action.type, 'side_b', a.get('side_b'))}{stake}"
        if action.type == "narrate_memory":
            return f"{who} brings {self.memory(str(a.get('memory')))} into the conflict"
        return super().sentence(action)

    # -- the parts of the face a decision is about (both front ends show them first) -----------
    def about(self) -> tuple[str, ...]:
        """The conflict (its stakes, memories and dice), the deal offered, the auction and the
        scene under way."""
        st = self.state
        if st is None or self.viewer is None:
            return ()
        if st.conflict is not None and st.phase not in ("TRIBUTE", "PLACE_TRIBUTE", "STRAIN_AND_GAIN"):
            return ("conflict:",)
        if st.trade is not None:  # the situation says the deal's terms (its face line again would repeat them)
            return ()
        if st.auction is not None and st.phase in (SEALED_BID, TIE_RAISE, ROLL_OFF):
            return ("auction of",)
        if st.scene is not None and st.conflict is None:
            return ("scene:",)
        return ()

    def about_lines(self) -> tuple[str, ...]:
        """The viewer's own purse and madness (its line alone: the memories are the options) with
        a deal, an auction or the coins of a tribute."""
        st = self.state
        if st is None or self.viewer is None or self.viewer not in st.elves:
            return ()
        if st.trade is None and st.conflict is None and st.auction is None:
            return ()
        name = st.elves[self.viewer].name
        return (f"{name} [", f"{name} (King)")
