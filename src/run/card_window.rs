//! Which turn cards the timeline draws: the ones in or near the window,
//! plus the few that must stay (the card holding focus, the card waiting for
//! an approval, the card just scrolled to), with spacers standing in for the
//! rest at their height. A 10,000-turn run then keeps a few dozen cards in
//! the page instead of 10,000.
//!
//! Heights are measured once a card is drawn; a card never drawn counts as
//! the average of those measured so far (or `DEFAULT_CARD_PX` before any),
//! so the spacers grow with the run about as much as the cards would have.
//! `CardHeights` keeps them in two Fenwick trees (the measured heights, and
//! how many are measured), so appending a card, measuring one, the offset
//! of a card and the card at an offset all cost O(log n): nothing here grows
//! with the run per event.
//!
//! A frame draws only a few cards that were not drawn before (`paced`):
//! the first cards of a fast run, or those around a jump far down the
//! list, are drawn over a few frames instead of holding the page in one.
//!
//! Pure and tested natively; `run/view/timeline_window.rs` feeds it the page's
//! numbers.

use std::ops::Range;

/// A card's height, margin included, before any card has been measured
/// (a one-tool-call turn is about this tall).
pub const DEFAULT_CARD_PX: f64 = 160.0;

/// Up to this many cards every card is drawn: a short run is read whole,
/// a full-page screenshot or a printout shows all of it, and find-in-page
/// sees every card.
pub const DRAW_ALL_UP_TO: usize = 30;

/// How far above and below the window cards are drawn ahead of scrolling.
pub const OVERSCAN_PX: f64 = 800.0;

/// At most this many cards are drawn anew in one frame, besides those that
/// must stay drawn (`paced`). A card takes about 2 ms to draw and lay out:
/// the first 30 cards of a fast run, drawn in one frame, held the page for
/// over 60 ms, and a frame's task is to stay under 50.
pub const NEW_PER_FRAME: usize = 8;

/// The heights of a run's cards, measured or estimated.
#[derive(Clone, Debug, Default)]
pub struct CardHeights {
    /// Each card's measured height, `None` until it was drawn.
    measured: Vec<Option<f64>>,
    /// Fenwick tree (1-based) over the measured heights (0 if unmeasured).
    sums: Vec<f64>,
    /// Fenwick tree (1-based) over "is measured" (1 or 0).
    counts: Vec<u32>,
    total_measured: f64,
    count_measured: usize,
}

impl CardHeights {
    pub fn len(&self) -> usize {
        self.measured.len()
    }

    pub fn is_empty(&self) -> bool {
        self.measured.is_empty()
    }

    /// A new card, not measured yet.
    pub fn push(&mut self) {
        self.measured.push(None);
        let n = self.measured.len();
        // A Fenwick node covers (n - lowbit(n), n]; the new card adds 0 to it.
        let from = n - lowbit(n);
        let sum = self.prefix_sum(n - 1) - self.prefix_sum(from);
        let count = self.prefix_count(n - 1) - self.prefix_count(from);
        if self.sums.is_empty() {
            self.sums.push(0.0);
            self.counts.push(0);
        }
        self.sums.push(sum);
        self.counts.push(count);
    }

    /// Card `index` measured `px` tall; answers whether that changed anything.
    pub fn measure(&mut self, index: usize, px: f64) -> bool {
        let Some(slot) = self.measured.get_mut(index) else {
            return false;
        };
        let px = px.max(0.0);
        let (before, counted) = match *slot {
            Some(old) if (old - px).abs() < 0.5 => return false,
            Some(old) => (old, 0),
            None => (0.0, 1),
        };
        *slot = Some(px);
        self.total_measured += px - before;
        self.count_measured += counted as usize;
        let mut i = index + 1;
        while i < self.sums.len() {
            self.sums[i] += px - before;
            self.counts[i] += counted;
            i += lowbit(i);
        }
        true
    }

    /// What an unmeasured card counts as: the average measured height.
    pub fn estimate(&self) -> f64 {
        if self.count_measured == 0 {
            DEFAULT_CARD_PX
        } else {
            self.total_measured / self.count_measured as f64
        }
    }

    /// The top of card `index`, from the top of the first card; `offset(len)`
    /// is the height of them all.
    pub fn offset(&self, index: usize) -> f64 {
        let index = index.min(self.len());
        let measured = self.prefix_count(index) as usize;
        self.prefix_sum(index) + (index - measured) as f64 * self.estimate()
    }

    pub fn total(&self) -> f64 {
        self.offset(self.len())
    }

    /// The card at `y` px from the top of the first card (the first card
    /// above 0, the last below the end).
    pub fn index_at(&self, y: f64) -> usize {
        let n = self.len();
        if n == 0 {
            return 0;
        }
        let estimate = self.estimate();
        // Fenwick descent: the most cards whose tops are all at or above `y`.
        let (mut pos, mut sum, mut count) = (0usize, 0.0, 0u32);
        let mut step = (n + 1).next_power_of_two();
        while step > 0 {
            let next = pos + step;
            if next <= n {
                let next_sum = sum + self.sums[next];
                let next_count = count + self.counts[next];
                let end = next_sum + (next - next_count as usize) as f64 * estimate;
                if end <= y {
                    pos = next;
                    sum = next_sum;
                    count = next_count;
                }
            }
            step /= 2;
        }
        pos.min(n - 1)
    }

    fn prefix_sum(&self, mut i: usize) -> f64 {
        let mut sum = 0.0;
        while i > 0 {
            sum += self.sums[i];
            i -= lowbit(i);
        }
        sum
    }

    fn prefix_count(&self, mut i: usize) -> u32 {
        let mut count = 0;
        while i > 0 {
            count += self.counts[i];
            i -= lowbit(i);
        }
        count
    }
}

fn lowbit(i: usize) -> usize {
    i & i.wrapping_neg()
}

/// The cards to draw for the part of the list in the window, `top` to
/// `bottom` px from the top of the first card (negative while the list
/// starts below the window's top), with `OVERSCAN_PX` either side. Empty
/// when the list is entirely off screen.
pub fn in_window(heights: &CardHeights, top: f64, bottom: f64) -> Range<usize> {
    let n = heights.len();
    if n <= DRAW_ALL_UP_TO {
        return 0..n;
    }
    let (top, bottom) = (top - OVERSCAN_PX, bottom + OVERSCAN_PX);
    if bottom < 0.0 || top > heights.total() {
        return 0..0;
    }
    heights.index_at(top)..heights.index_at(bottom) + 1
}

/// One row of the list as drawn: a card, or a spacer as tall as the cards
/// `from..to` it stands for.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Row {
    Card(usize),
    Gap { from: usize, to: usize },
}

/// The list's rows: the cards of `window` and those of `kept` (any order,
/// duplicates and indexes past the end ignored), in order, with a spacer
/// for each run of cards not drawn.
pub fn rows(len: usize, window: Range<usize>, kept: &[usize]) -> Vec<Row> {
    rows_of(len, &wanted(len, window, kept))
}

/// The cards `rows` draws: those of `window` and of `kept`, in order.
pub fn wanted(len: usize, window: Range<usize>, kept: &[usize]) -> Vec<usize> {
    let mut drawn: Vec<usize> = (window.start.min(len)..window.end.min(len)).collect();
    for &card in kept.iter().filter(|&&card| card < len) {
        // A handful at most: inserting in place beats sorting (and weighs less).
        if let Err(at) = drawn.binary_search(&card) {
            drawn.insert(at, card);
        }
    }
    drawn
}

/// Of the cards `wanted` (in order), those to draw now: every one drawn
/// already (`before`, in order) or that must stay drawn (`kept`), and the
/// first `new_cards` of the others (`NEW_PER_FRAME` in a frame that drew
/// none yet). The rest wait for a later frame (standing in a spacer
/// meanwhile); the answer says whether any does.
pub fn paced(
    wanted: &[usize],
    before: &[usize],
    kept: &[usize],
    new_cards: usize,
) -> (Vec<usize>, bool) {
    let mut new = 0;
    let mut waiting = false;
    let drawn = wanted
        .iter()
        .copied()
        .filter(|card| {
            if before.binary_search(card).is_ok() || kept.contains(card) {
                return true;
            }
            new += 1;
            waiting |= new > new_cards;
            new <= new_cards
        })
        .collect();
    (drawn, waiting)
}

/// The list's rows for the cards `drawn` (in order, none past `len`), with
/// a spacer for each run of cards not drawn.
pub fn rows_of(len: usize, drawn: &[usize]) -> Vec<Row> {
    let mut rows = Vec::with_capacity(drawn.len() * 2 + 1);
    let mut next = 0;
    for &card in drawn {
        if card > next {
            rows.push(Row::Gap {
                from: next,
                to: card,
            });
        }
        rows.push(Row::Card(card));
        next = card + 1;
    }
    if next < len {
        rows.push(Row::Gap {
            from: next,
            to: len,
        });
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::*;

    fn heights(n: usize) -> CardHeights {
        let mut h = CardHeights::default();
        (0..n).for_each(|_| h.push());
        h
    }

    /// The same sums the slow way, to check the trees against.
    fn slow_offset(measured: &[Option<f64>], index: usize) -> f64 {
        let known: Vec<f64> = measured.iter().flatten().copied().collect();
        let estimate = if known.is_empty() {
            DEFAULT_CARD_PX
        } else {
            known.iter().sum::<f64>() / known.len() as f64
        };
        measured[..index]
            .iter()
            .map(|m| m.unwrap_or(estimate))
            .sum()
    }

    #[test]
    fn unmeasured_cards_count_as_the_default_then_as_the_measured_average() {
        let mut h = heights(10);
        assert_eq!(h.total(), 10.0 * DEFAULT_CARD_PX);
        assert!(h.measure(0, 100.0));
        assert!(h.measure(1, 200.0));
        assert_eq!(h.estimate(), 150.0);
        assert_eq!(h.offset(2), 300.0);
        assert_eq!(h.total(), 300.0 + 8.0 * 150.0);
        // The same height again changes nothing; a card past the end is ignored.
        assert!(!h.measure(1, 200.2));
        assert!(!h.measure(10, 50.0));
        // Measured again (a result expanded), it counts once, at its new height.
        assert!(h.measure(1, 400.0));
        assert_eq!(h.offset(2), 500.0);
        assert_eq!(h.estimate(), 250.0);
    }

    #[test]
    fn offsets_and_the_card_at_an_offset_agree_with_plain_sums_as_cards_arrive() {
        let mut h = CardHeights::default();
        let mut plain = Vec::new();
        for i in 0..1000usize {
            h.push();
            plain.push(None);
            // Some cards are drawn (and measured) as they arrive, some later.
            if i % 3 == 0 {
                let px = 50.0 + (i * 37 % 300) as f64;
                h.measure(i, px);
                plain[i] = Some(px);
            }
            if i % 7 == 0 && i >= 10 {
                h.measure(i - 10, 90.0);
                plain[i - 10] = Some(90.0);
            }
            if i % 97 == 0 {
                for index in [0, i / 2, i, i + 1] {
                    let want = slow_offset(&plain, index.min(plain.len()));
                    assert!(
                        (h.offset(index) - want).abs() < 1e-6,
                        "offset({index}) after {i}"
                    );
                }
            }
        }
        for index in [0, 1, 2, 499, 500, 998, 999] {
            let top = h.offset(index);
            let bottom = h.offset(index + 1);
            assert_eq!(h.index_at(top), index, "the top of card {index}");
            assert_eq!(
                h.index_at((top + bottom) / 2.0),
                index,
                "the middle of card {index}"
            );
        }
        assert_eq!(h.index_at(-100.0), 0);
        assert_eq!(h.index_at(h.total() + 100.0), 999);
    }

    #[test]
    fn a_short_run_draws_every_card_and_a_long_one_only_those_near_the_window() {
        let short = heights(DRAW_ALL_UP_TO);
        assert_eq!(in_window(&short, 5_000.0, 5_900.0), 0..DRAW_ALL_UP_TO);
        let long = heights(10_000);
        // 900 px at the top of the list, 800 px drawn ahead below: 11 cards of 160.
        assert_eq!(in_window(&long, 0.0, 900.0), 0..11);
        // Far down: the cards from 800 px above to 800 px below.
        let top = 5_000.0 * DEFAULT_CARD_PX;
        let window = in_window(&long, top, top + 900.0);
        assert_eq!(window, 4_995..5_011);
        // The list below the window, or above it: nothing to draw.
        assert_eq!(in_window(&long, -2_000.0, -1_000.0), 0..0);
        let end = long.total();
        assert_eq!(in_window(&long, end + 1_000.0, end + 1_900.0), 0..0);
    }

    #[test]
    fn rows_draw_the_window_and_the_kept_cards_with_spacers_between() {
        use Row::{Card, Gap};
        assert_eq!(
            rows(100, 40..43, &[99, 41, 7, 400]),
            [
                Gap { from: 0, to: 7 },
                Card(7),
                Gap { from: 8, to: 40 },
                Card(40),
                Card(41),
                Card(42),
                Gap { from: 43, to: 99 },
                Card(99),
            ]
        );
        assert_eq!(rows(3, 0..3, &[]), [Card(0), Card(1), Card(2)]);
        assert_eq!(rows(5, 0..0, &[]), [Gap { from: 0, to: 5 }]);
        assert_eq!(rows(0, 0..0, &[]), []);
    }

    #[test]
    fn a_frame_draws_at_most_a_few_new_cards_and_always_the_kept_ones() {
        // A fast run's first frame: 30 cards wanted, none drawn yet, and the
        // card holding focus far down.
        let wanted: Vec<usize> = (0..30).collect();
        let (first, waiting) = paced(&wanted, &[], &[25], NEW_PER_FRAME);
        assert!(waiting);
        let mut expected: Vec<usize> = (0..NEW_PER_FRAME).collect();
        expected.push(25);
        assert_eq!(first, expected);
        // Frame after frame, the cards drawn stay and a few more come, until
        // all are drawn.
        let (second, waiting) = paced(&wanted, &first, &[25], NEW_PER_FRAME);
        assert!(waiting);
        assert_eq!(second.len(), first.len() + NEW_PER_FRAME);
        assert!(first.iter().all(|card| second.contains(card)));
        let mut drawn = second;
        let mut frames = 2;
        loop {
            let (next, waiting) = paced(&wanted, &drawn, &[25], NEW_PER_FRAME);
            drawn = next;
            frames += 1;
            if !waiting {
                break;
            }
        }
        assert_eq!(drawn, wanted);
        assert_eq!(frames, 29usize.div_ceil(NEW_PER_FRAME));
        // Cards no longer wanted (scrolled away) go at once.
        let (moved, waiting) = paced(&[28, 29], &drawn, &[], NEW_PER_FRAME);
        assert_eq!((moved, waiting), (vec![28, 29], false));
        // A frame that drew its share already draws no new card, but the
        // kept ones all the same.
        let (later, waiting) = paced(&[0, 1, 2], &[0], &[2], 0);
        assert_eq!((later, waiting), (vec![0, 2], true));
        // The rows stand a spacer in for the cards still waiting.
        assert_eq!(
            rows_of(30, &[0, 1, 25]),
            [
                Row::Card(0),
                Row::Card(1),
                Row::Gap { from: 2, to: 25 },
                Row::Card(25),
                Row::Gap { from: 26, to: 30 },
            ]
        );
    }
}
