"""What ``determinize`` of ethnos_v0 keeps (known cards, the Dragon region) and re-samples (a band
another seat is building, the cards it keeps with an Elf)."""

from __future__ import annotations

import numpy as np

from tablezoo.envs.ethnos import actions as enc
from tablezoo.envs.ethnos.components import DRAGON, NUM_TYPES, SKELETON, TYPE_NAMES
from tests.envs.ethnos.positions import BASE, A, B, C, build, make_game, play_band, t


# --- hidden information --------------------------------------------------------------------------
def test_determinize_keeps_known_cards_and_dragon_region():
    g = make_game(4, ["Orcs", "Elves", "Trolls", "Wizards", "Dwarves", "Skeletons"])
    s = build(g, hands={B: ["red Orc", "blue Elf", "green Troll"]}, display=["grey Wizard"],
              actor=B)
    s.step(enc.RECRUIT_DISPLAY + TYPE_NAMES.index("grey Wizard"))  # B's Wizard is public
    rng = np.random.default_rng(5)
    obs = s.observe(A)
    changed = False
    for _ in range(20):
        r = s.determinize(A, rng)
        assert np.array_equal(r.observe(A), obs)
        assert r.hands[B, TYPE_NAMES.index("grey Wizard")] >= 1
        assert np.array_equal(r.hands[A], s.hands[A])
        assert [int(h.sum()) for h in r.hands] == s.hand_len  # hand sizes are public
        assert all(i < r.lower_left for i, c in enumerate(r.deck) if c == DRAGON)
        assert r.deck.count(DRAGON) == 3
        changed |= not np.array_equal(r.hands[B], s.hands[B])
    assert changed


# --- determinize: another seat's band under construction / Elf keeps are hidden ---------------
def _conserved(r) -> bool:
    total = r.display + r.hands.sum(axis=0) + r.building + r.elf_kept + r.discard
    total = total + r.band_cards.sum(axis=0)
    deck = np.bincount(np.asarray(r.deck, np.int64), minlength=DRAGON + 1)[:NUM_TYPES]
    return bool(np.array_equal(total + deck, r.full))


def test_determinize_resamples_a_band_another_seat_is_building():
    g = make_game(4, BASE)
    s = build(g, hands={B: ["red Elf", "red Orc", "blue Troll", "Skeleton"]}, actor=B)
    s.step(enc.LEADER + t("red Elf"))
    s.step(enc.ADD_CARD + t("red Orc"))
    obs = s.observe(A)
    rng = np.random.default_rng(3)
    leaders = set()
    for _ in range(30):
        r = s.determinize(A, rng)
        assert np.array_equal(r.observe(A), obs)  # nothing A sees changes
        assert r.phase == enc.BUILD and r.actor == B
        assert r.hand_len[B] + r.building_len == 4  # B's card count is public
        assert r.building_leader != SKELETON and r.building[r.building_leader] >= 1
        assert _conserved(r)
        leaders.add(r.building_leader)
        r.step(enc.FINISH_BAND)  # the re-sampled position plays on
    assert len(leaders) > 1  # the true partial band (red Elf + red Orc) is not kept


def test_determinize_resamples_cards_another_seat_keeps_with_an_elf():
    g = make_game(4, BASE)
    s = build(g, hands={B: ["red Elf", "red Orc", "red Troll", "blue Orc", "green Troll",
                            "grey Wizard"]}, actor=B)
    play_band(s, "red Elf", ["red Orc", "red Troll"])
    s.step(enc.ELF_KEEP + t("blue Orc"))
    obs = s.observe(C)
    rng = np.random.default_rng(4)
    kept_blue_orc = 0
    for _ in range(30):
        r = s.determinize(C, rng)
        assert np.array_equal(r.observe(C), obs)
        assert r.phase == enc.ELF_PICK and r.elf_kept.sum() == 1 and r.hand_len[B] == 2
        assert _conserved(r)
        kept_blue_orc += int(r.elf_kept[t("blue Orc")])
        r.step(enc.ELF_DONE)
        assert r.hand_len[B] == 1 and r.actor == C
    assert kept_blue_orc < 30
