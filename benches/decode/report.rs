//! The measured runs and the tables printed from them: per-mask
//! percentiles, compile and first-mask times, coverage, refusals.

use std::collections::BTreeMap;

use crate::data::Case;

/// One engine on one schema.
pub struct SchemaRun {
    /// Schema JSON to constraint, µs; `Err` holds why it did not compile.
    pub compile: Result<f64, String>,
    /// Compile, start a sequence and compute its first mask, µs.
    pub first_mask: Option<f64>,
    /// Per instance: its mask times, or where and why a token was refused.
    pub instances: Vec<Result<Timing, String>>,
}

/// Each mask's time in µs, one per token and one for the end.
pub struct Timing {
    /// The first pass over the instance.
    pub first: Vec<f64>,
    /// The least time at each position over the repeated passes.
    pub best: Vec<f64>,
}

/// One engine over all the cases of a vocabulary.
pub struct EngineRun {
    pub name: &'static str,
    /// Preparing the vocabulary, once, ms.
    pub prepare_ms: f64,
    /// Aligned with the cases.
    pub schemas: Vec<SchemaRun>,
}

/// The value at quantile `q` of sorted `v` (nearest rank).
fn pct(v: &[f64], q: f64) -> f64 {
    let i = ((q * v.len() as f64).ceil() as usize).saturating_sub(1);
    v[i.min(v.len() - 1)]
}

/// `| n | avg | p50 | p99 | p99.9 | max |` cells of `v` (µs), sorted here.
fn mask_cells(mut v: Vec<f64>) -> String {
    if v.is_empty() {
        return "0 | – | – | – | – | –".to_owned();
    }
    v.sort_by(f64::total_cmp);
    let avg = v.iter().sum::<f64>() / v.len() as f64;
    format!(
        "{} | {avg:.1} | {:.1} | {:.1} | {:.1} | {:.1}",
        v.len(),
        pct(&v, 0.5),
        pct(&v, 0.99),
        pct(&v, 0.999),
        v[v.len() - 1]
    )
}

/// `| n | p50 | p99 |` cells of `v` (µs), printed in ms.
fn time_cells(mut v: Vec<f64>) -> String {
    if v.is_empty() {
        return "0 | – | –".to_owned();
    }
    v.sort_by(f64::total_cmp);
    format!(
        "{} | {:.3} | {:.3}",
        v.len(),
        pct(&v, 0.5) / 1e3,
        pct(&v, 0.99) / 1e3
    )
}

/// Prints the tables for one vocabulary.
pub fn print(vocab: &str, cases: &[Case], runs: &[EngineRun], repeat: usize) {
    let tools = cases.iter().filter(|c| c.tool_like).count();
    let instances: usize = cases.iter().map(|c| c.instances.len()).sum();
    println!();
    println!(
        "## decode, {vocab}: {} schemas ({tools} tool-like), {instances} valid instances",
        cases.len()
    );
    println!();
    for r in runs {
        println!(
            "{}: vocabulary prepared in {:.0} ms (once, outside the figures)",
            r.name, r.prepare_ms
        );
    }
    println!();
    println!("| engine | compiles (all) | compiles (tool-like) | instances accepted |");
    println!("|---|---:|---:|---:|");
    for r in runs {
        let ok = |tool: bool| {
            cases
                .iter()
                .zip(&r.schemas)
                .filter(|(c, s)| (!tool || c.tool_like) && s.compile.is_ok())
                .count()
        };
        let accepted = r
            .schemas
            .iter()
            .flat_map(|s| &s.instances)
            .filter(|i| i.is_ok())
            .count();
        let tried: usize = cases
            .iter()
            .zip(&r.schemas)
            .filter(|(_, s)| s.compile.is_ok())
            .map(|(c, _)| c.instances.len())
            .sum();
        println!(
            "| {} | {}/{} | {}/{tools} | {accepted}/{tried} |",
            r.name,
            ok(false),
            cases.len(),
            ok(true)
        );
    }
    // "both": schemas both engines compile and instances both accept
    // whole, so both columns time the same token sequences.
    let both_schema = |i: usize| runs.iter().all(|r| r.schemas[i].compile.is_ok());
    let both_instance = |i: usize, k: usize| runs.iter().all(|r| r.schemas[i].instances[k].is_ok());
    println!();
    println!(
        "Mask per token, µs (`both`: the instances both engines accept whole; `own`: each engine's own):"
    );
    println!();
    println!("| engine | subset | pass | masks | avg | p50 | p99 | p99.9 | max |");
    println!("|---|---|---|---:|---:|---:|---:|---:|---:|");
    let best_label = format!("best of {repeat}");
    for (label, tool_only, both, best) in [
        ("tool-like, both", true, true, false),
        ("tool-like, both", true, true, true),
        ("all, both", false, true, false),
        ("all, both", false, true, true),
        ("tool-like, own", true, false, false),
        ("all, own", false, false, false),
    ] {
        for r in runs {
            let mut v = Vec::new();
            for (i, (c, s)) in cases.iter().zip(&r.schemas).enumerate() {
                if (tool_only && !c.tool_like) || (both && !both_schema(i)) {
                    continue;
                }
                for (k, inst) in s.instances.iter().enumerate() {
                    if let Ok(t) = inst
                        && (!both || both_instance(i, k))
                    {
                        v.extend_from_slice(if best { &t.best } else { &t.first });
                    }
                }
            }
            let pass = if best { best_label.as_str() } else { "first" };
            println!("| {} | {label} | {pass} | {} |", r.name, mask_cells(v));
        }
    }
    println!();
    println!(
        "Compile (schema JSON to constraint) and time to first mask (compile + first mask), ms, on the schemas both compile:"
    );
    println!();
    println!(
        "| engine | subset | schemas | compile p50 | compile p99 | schemas | first mask p50 | first mask p99 |"
    );
    println!("|---|---|---:|---:|---:|---:|---:|---:|");
    for (label, tool_only) in [("tool-like", true), ("all", false)] {
        for r in runs {
            let pick = |i: usize, c: &Case| (!tool_only || c.tool_like) && both_schema(i);
            let compile: Vec<f64> = cases
                .iter()
                .enumerate()
                .filter(|(i, c)| pick(*i, c))
                .filter_map(|(i, _)| r.schemas[i].compile.as_ref().ok().copied())
                .collect();
            let first: Vec<f64> = cases
                .iter()
                .enumerate()
                .filter(|(i, c)| pick(*i, c))
                .filter_map(|(i, _)| r.schemas[i].first_mask)
                .collect();
            println!(
                "| {} | {label} | {} | {} |",
                r.name,
                time_cells(compile),
                time_cells(first)
            );
        }
    }
    println!();
    for r in runs {
        // Where the slowest masks are (best of the passes, so not a
        // preemption): the schemas by their slowest mask.
        let mut worst: Vec<(f64, &str)> = cases
            .iter()
            .zip(&r.schemas)
            .filter_map(|(c, s)| {
                let m = s
                    .instances
                    .iter()
                    .flatten()
                    .flat_map(|t| t.best.iter().copied())
                    .fold(None, |a: Option<f64>, t| Some(a.map_or(t, |a| a.max(t))))?;
                Some((m, c.name.as_str()))
            })
            .collect();
        worst.sort_by(|a, b| b.0.total_cmp(&a.0));
        let list: Vec<String> = worst
            .iter()
            .take(3)
            .map(|(t, n)| format!("{n} {:.2} ms", t / 1e3))
            .collect();
        println!(
            "{} slowest mask (best of {repeat}) by schema: {}",
            r.name,
            list.join(", ")
        );
    }
    println!();
    for r in runs {
        let mut why: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
        for (c, s) in cases.iter().zip(&r.schemas) {
            if let Err(e) = &s.compile {
                why.entry(e.as_str()).or_default().push(&c.name);
            }
        }
        println!(
            "{} refused to compile {} schemas:",
            r.name,
            r.schemas.iter().filter(|s| s.compile.is_err()).count()
        );
        let mut why: Vec<_> = why.into_iter().collect();
        why.sort_by_key(|(_, v)| std::cmp::Reverse(v.len()));
        for (e, names) in why {
            println!("  {:>3} × {e} (e.g. {})", names.len(), names[0]);
        }
        for (c, s) in cases.iter().zip(&r.schemas) {
            for (k, inst) in s.instances.iter().enumerate() {
                if let Err(e) = inst {
                    println!("  instance refused: {}#{k}: {e}", c.name);
                }
            }
        }
    }
}

/// One engine's `first` mask figures on its own instances (tool-like and
/// all), with no peer: a quick check while profiling.
pub fn print_one(vocab: &str, cases: &[Case], run: &EngineRun) {
    for (label, tool_only) in [("tool-like", true), ("all", false)] {
        let mut v = Vec::new();
        let mut worst: Option<(f64, &str)> = None;
        for (case, s) in cases.iter().zip(&run.schemas) {
            if tool_only && !case.tool_like {
                continue;
            }
            for t in s.instances.iter().flatten() {
                v.extend_from_slice(&t.first);
                for &x in &t.first {
                    if worst.is_none_or(|w| x > w.0) {
                        worst = Some((x, &case.name));
                    }
                }
            }
        }
        println!(
            "{vocab} {} {label}, own, first: masks | avg | p50 | p99 | p99.9 | max = {}; worst {:?}",
            run.name,
            mask_cells(v),
            worst
        );
    }
}
