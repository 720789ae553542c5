//! The statistics behind `check --confidence`, `summary --compare` and the
//! change-point line: Wilson score intervals for one proportion, Newcombe's
//! hybrid score interval for a difference of two independent proportions,
//! and the most likely change point of a series of daily counts. Pure
//! functions over integer counts; nothing here reads, prints or decides.

/// The two-sided standard-normal quantile for a confidence level
/// (0.95 → 1.959964), by Acklam's rational approximation (relative error
/// about 1e-9, plenty for gating).
pub fn z_for(confidence: f64) -> f64 {
    let p = 1.0 - (1.0 - confidence) / 2.0;
    inverse_normal(p)
}

fn inverse_normal(p: f64) -> f64 {
    const A: [f64; 6] = [
        -3.969683028665376e1,
        2.209460984245205e2,
        -2.759285104469687e2,
        1.383_577_518_672_69e2,
        -3.066479806614716e1,
        2.506628277459239,
    ];
    const B: [f64; 5] = [
        -5.447609879822406e1,
        1.615858368580409e2,
        -1.556989798598866e2,
        6.680131188771972e1,
        -1.328068155288572e1,
    ];
    const C: [f64; 6] = [
        -7.784894002430293e-3,
        -3.223964580411365e-1,
        -2.400758277161838,
        -2.549732539343734,
        4.374664141464968,
        2.938163982698783,
    ];
    const D: [f64; 4] = [
        7.784695709041462e-3,
        3.224671290700398e-1,
        2.445134137142996,
        3.754408661907416,
    ];
    let low = 0.02425;
    if p < low {
        let q = (-2.0 * p.ln()).sqrt();
        (((((C[0] * q + C[1]) * q + C[2]) * q + C[3]) * q + C[4]) * q + C[5])
            / ((((D[0] * q + D[1]) * q + D[2]) * q + D[3]) * q + 1.0)
    } else if p <= 1.0 - low {
        let q = p - 0.5;
        let r = q * q;
        (((((A[0] * r + A[1]) * r + A[2]) * r + A[3]) * r + A[4]) * r + A[5]) * q
            / (((((B[0] * r + B[1]) * r + B[2]) * r + B[3]) * r + B[4]) * r + 1.0)
    } else {
        -inverse_normal(1.0 - p)
    }
}

/// The Wilson score interval for k successes in n trials at quantile z,
/// clamped to 0..1; (0, 1) when n is 0 (nothing is known).
pub fn wilson(k: u64, n: u64, z: f64) -> (f64, f64) {
    if n == 0 {
        return (0.0, 1.0);
    }
    let (all, none) = (k == n, k == 0);
    let (k, n) = (k as f64, n as f64);
    let p = k / n;
    let z2 = z * z;
    let centre = p + z2 / (2.0 * n);
    let spread = z * (p * (1.0 - p) / n + z2 / (4.0 * n * n)).sqrt();
    let d = 1.0 + z2 / n;
    // At k = 0 and k = n the bounds are exactly 0 and 1 in theory; say so
    // rather than 0.9999999999999998, which a bar of 1 would fail.
    let lower = if none {
        0.0
    } else {
        ((centre - spread) / d).max(0.0)
    };
    let upper = if all {
        1.0
    } else {
        ((centre + spread) / d).min(1.0)
    };
    (lower, upper)
}

/// Lower bound of the Wilson score interval (0 when n is 0).
pub fn wilson_lower(k: u64, n: u64, z: f64) -> f64 {
    if n == 0 {
        return 0.0;
    }
    wilson(k, n, z).0
}

/// A difference of two proportions, `current − baseline`, with its interval.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Difference {
    pub diff: f64,
    pub low: f64,
    pub high: f64,
}

impl Difference {
    /// The interval excludes 0: the change is significant at its confidence.
    pub fn significant(&self) -> bool {
        self.low > 0.0 || self.high < 0.0
    }
}

/// Newcombe's hybrid score interval (his method 10, 1998) for
/// `k1/n1 − k0/n0`, two independent proportions: each side's Wilson
/// interval, combined by the square-root rule. Unlike the Wald interval it
/// stays inside −1..1 and behaves at rates of 0 and 1 and at small n. None
/// when either side has no trial.
pub fn newcombe(k1: u64, n1: u64, k0: u64, n0: u64, z: f64) -> Option<Difference> {
    if n1 == 0 || n0 == 0 {
        return None;
    }
    let (p1, p0) = (k1 as f64 / n1 as f64, k0 as f64 / n0 as f64);
    let (l1, u1) = wilson(k1, n1, z);
    let (l0, u0) = wilson(k0, n0, z);
    let diff = p1 - p0;
    Some(Difference {
        diff,
        low: diff - ((p1 - l1).powi(2) + (u0 - p0).powi(2)).sqrt(),
        high: diff + ((u1 - p1).powi(2) + (p0 - l0).powi(2)).sqrt(),
    })
}

/// The chi-square(1) quantile at 0.95: the likelihood-ratio statistic a
/// change point must exceed to be reported.
pub const CHI2_1_95: f64 = 3.841_458_820_694_124;

/// The most likely change point of a series.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ChangePoint {
    /// Index of the first element after the change.
    pub index: usize,
    /// Successes and trials before and after it.
    pub before: (u64, u64),
    pub after: (u64, u64),
    /// The likelihood-ratio statistic 2·(log L(split) − log L(one rate)).
    pub lr: f64,
}

impl ChangePoint {
    /// The rate before the change.
    pub fn before_rate(&self) -> f64 {
        self.before.0 as f64 / self.before.1 as f64
    }
    /// The rate after it.
    pub fn after_rate(&self) -> f64 {
        self.after.0 as f64 / self.after.1 as f64
    }
}

/// Binomial log-likelihood of k in n at the fitted rate k/n (0·ln 0 = 0).
fn loglik(k: u64, n: u64) -> f64 {
    let term = |a: u64| {
        if a == 0 {
            0.0
        } else {
            a as f64 * (a as f64 / n as f64).ln()
        }
    };
    if n == 0 { 0.0 } else { term(k) + term(n - k) }
}

/// The split of a series of (successes, trials) into "before" and "after"
/// that maximises the binomial likelihood of one rate on each side, and its
/// likelihood-ratio statistic against a single rate. Elements with no trial
/// are skipped (a split never lands on one). None when fewer than two
/// elements have trials. Whether it is significant is for the caller to
/// decide ([`significant_change`]).
pub fn change_point(series: &[(u64, u64)]) -> Option<ChangePoint> {
    let total = series.iter().fold((0, 0), |(k, n), &(a, b)| (k + a, n + b));
    let null = loglik(total.0, total.1);
    let mut best: Option<ChangePoint> = None;
    let mut before = (0u64, 0u64);
    for (i, &(k, n)) in series.iter().enumerate() {
        if n > 0 && before.1 > 0 {
            let after = (total.0 - before.0, total.1 - before.1);
            let lr = 2.0 * (loglik(before.0, before.1) + loglik(after.0, after.1) - null);
            if best.is_none_or(|b| lr > b.lr) {
                best = Some(ChangePoint {
                    index: i,
                    before,
                    after,
                    lr: lr.max(0.0),
                });
            }
        }
        before = (before.0 + k, before.1 + n);
    }
    best
}

/// The change point of a series when its likelihood-ratio statistic exceeds
/// the chi-square(1) quantile at 0.95. Taking the best of many splits makes
/// this test somewhat liberal (the maximum of several statistics is not
/// chi-square(1)); it is a pointer for a human ("look from this day"), not
/// a gate.
pub fn significant_change(series: &[(u64, u64)]) -> Option<ChangePoint> {
    change_point(series).filter(|c| c.lr > CHI2_1_95)
}

/// A rate as every output prints it: four decimals, or `n/a` when there is
/// nothing to divide by.
pub fn rate_text(x: Option<f64>) -> String {
    x.map_or_else(|| "n/a".to_owned(), |x| format!("{x:.4}"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wilson_matches_the_documented_examples() {
        let z = z_for(0.95);
        assert!((z - 1.959964).abs() < 1e-5);
        assert!((wilson_lower(16, 17, z) - 0.7302).abs() < 5e-5);
        // 25 of 25: the interval is [0.8668, 1].
        let (l, u) = wilson(25, 25, z);
        assert!((l - 0.8668).abs() < 5e-5, "{l}");
        assert_eq!(u, 1.0);
        // 0 of 10: [0, 0.2775].
        let (l, u) = wilson(0, 10, z);
        assert_eq!(l, 0.0);
        assert!((u - 0.2775).abs() < 5e-5, "{u}");
        assert_eq!(wilson(0, 0, z), (0.0, 1.0));
    }

    /// Newcombe (1998), table II, example (a): 56/70 − 48/80 = 0.2000,
    /// method 10 gives 0.0524 to 0.3339.
    #[test]
    fn newcombe_matches_the_published_example() {
        let d = newcombe(56, 70, 48, 80, z_for(0.95)).unwrap();
        assert!((d.diff - 0.2).abs() < 1e-12);
        assert!((d.low - 0.0524).abs() < 5e-5, "{d:?}");
        assert!((d.high - 0.3339).abs() < 5e-5, "{d:?}");
        assert!(d.significant());
        // Example (h): 0/10 − 0/20 = 0, −0.1611 to 0.2775.
        let d = newcombe(0, 10, 0, 20, z_for(0.95)).unwrap();
        assert!((d.low + 0.1611).abs() < 5e-5, "{d:?}");
        assert!((d.high - 0.2775).abs() < 5e-5, "{d:?}");
        assert!(!d.significant());
        assert!(newcombe(1, 0, 1, 1, 1.96).is_none());
    }

    #[test]
    fn change_point_finds_the_day_the_rate_fell() {
        // Five days at 95/100, then four at 80/100.
        let mut s = vec![(95, 100); 5];
        s.extend([(80, 100); 4]);
        let c = significant_change(&s).unwrap();
        assert_eq!(c.index, 5);
        assert_eq!(c.before, (475, 500));
        assert_eq!(c.after, (320, 400));
        // A day with no trial never takes the split.
        let mut gap = s.clone();
        gap.insert(5, (0, 0));
        assert_eq!(significant_change(&gap).unwrap().index, 6);
    }

    #[test]
    fn a_steady_series_has_no_significant_change() {
        let s = [(95, 100), (94, 100), (96, 100), (95, 100), (93, 100)];
        assert!(change_point(&s).is_some());
        assert!(significant_change(&s).is_none());
        assert!(change_point(&[(5, 10)]).is_none());
        assert!(change_point(&[]).is_none());
    }
}

/// How the ratio `num / den` compares with a threshold, exactly: the
/// threshold is taken as the decimal it was written as (the shortest
/// decimal that parses to its `f64`, which is the text a user gave
/// whenever it had at most 17 significant digits: `0.05` is 5/100, not the
/// binary fraction nearest it), and both sides are compared in integers.
/// `None` when `den` is 0, the threshold is negative or not finite, or the
/// integers would overflow; callers then compare `f64` values.
pub fn cmp_ratio(num: u128, den: u128, threshold: f64) -> Option<std::cmp::Ordering> {
    let (p, q) = decimal(threshold)?;
    if den == 0 {
        return None;
    }
    Some(num.checked_mul(q)?.cmp(&p.checked_mul(den)?))
}

/// `t` as `p / q` with `q` a power of ten, from its shortest decimal form.
fn decimal(t: f64) -> Option<(u128, u128)> {
    if !t.is_finite() || t < 0.0 {
        return None;
    }
    let text = format!("{t}");
    let (whole, frac) = text.split_once('.').unwrap_or((&text, ""));
    let q = 10u128.checked_pow(u32::try_from(frac.len()).ok()?)?;
    let digits = format!("{whole}{frac}");
    let p: u128 = digits.parse().ok()?;
    Some((p, q))
}

/// The signed difference `a/b - c/d` compared with a threshold `t >= 0`
/// (`a/b` the baseline rate, `c/d` the current: a drop), exactly as
/// [`cmp_ratio`] does; `None` where it cannot be.
pub fn cmp_drop(a: u64, b: u64, c: u64, d: u64, t: f64) -> Option<std::cmp::Ordering> {
    let (base, now) = (u128::from(a) * u128::from(d), u128::from(c) * u128::from(b));
    let den = u128::from(b) * u128::from(d);
    if base <= now {
        // No drop (or a rise): below any threshold above 0, equal to 0.
        let (p, _) = decimal(t)?;
        return Some(if base == now && p == 0 {
            std::cmp::Ordering::Equal
        } else {
            std::cmp::Ordering::Less
        });
    }
    cmp_ratio(base - now, den, t)
}

#[cfg(test)]
mod exact_tests {
    use super::*;
    use std::cmp::Ordering::*;

    #[test]
    fn thresholds_compare_as_the_decimals_written() {
        assert_eq!(cmp_ratio(19, 20, 0.95), Some(Equal));
        assert_eq!(cmp_ratio(1, 20, 0.05), Some(Equal));
        assert_eq!(cmp_ratio(2, 3, 0.6667), Some(Less));
        assert_eq!(cmp_ratio(2, 3, 0.6666), Some(Greater));
        assert_eq!(cmp_ratio(1, 0, 0.5), None);
        assert_eq!(cmp_ratio(1, 2, -0.5), None);
        assert_eq!(cmp_ratio(0, 5, 0.0), Some(Equal));
        // 20/20 then 19/20: a drop of exactly 0.05.
        assert_eq!(cmp_drop(20, 20, 19, 20, 0.05), Some(Equal));
        let (b, c) = (
            std::hint::black_box(20.0_f64),
            std::hint::black_box(19.0_f64),
        );
        assert!(b / 20.0 - c / 20.0 > 0.05, "where f64 says more");
        assert_eq!(cmp_drop(20, 20, 19, 20, 0.049), Some(Greater));
        assert_eq!(cmp_drop(19, 20, 20, 20, 0.0), Some(Less));
        assert_eq!(cmp_drop(7, 9, 14, 18, 0.0), Some(Equal));
        assert_eq!(cmp_drop(u64::MAX, u64::MAX, 1, u64::MAX, 0.5), None);
    }
}
