//! The process's memory as Linux reports it, and memory sizes as people write them.
//!
//! [`peak_resident_mib`] reads the high-water mark of the resident set (`VmHWM` in
//! `/proc/self/status`): what the tool's tables print as "peak (MiB)" and what the
//! benchmarks record. [`total_bytes`] reads `MemTotal` from `/proc/meminfo`, the base of the
//! provers' default memory limit. [`parse_size`] reads `512MiB`, `4GiB`, `1.5 GB` or a bare
//! number of MiB. Off Linux the readers return `None`.

/// Peak resident memory of this process so far (Linux `VmHWM`), in MiB; `None` where the
/// system does not report it.
#[must_use]
pub fn peak_resident_mib() -> Option<f64> {
    kib_field("/proc/self/status", "VmHWM:").map(|kib| kib as f64 / 1024.0)
}

/// The machine's memory (Linux `MemTotal`), in bytes; `None` where the system does not
/// report it.
#[must_use]
pub fn total_bytes() -> Option<u64> {
    kib_field("/proc/meminfo", "MemTotal:").map(|kib| kib * 1024)
}

/// The value in KiB of the line `name  <n> kB` of a `/proc` file.
fn kib_field(path: &str, name: &str) -> Option<u64> {
    let text = std::fs::read_to_string(path).ok()?;
    let line = text.lines().find_map(|l| l.strip_prefix(name))?;
    line.split_whitespace().next()?.parse().ok()
}

/// A memory size in bytes from `text`: a number with an optional unit, binary (`KiB`,
/// `MiB`, `GiB`, `TiB`) or decimal (`kB`, `MB`, `GB`, `TB`), case-insensitive, `B` for
/// bytes, spaces allowed between; a bare number is MiB. Fractions are allowed
/// (`1.5GiB`); the result is rounded down to whole bytes.
///
/// # Errors
/// A message naming the text for an empty, negative, unparsable or too large size, or an
/// unknown unit.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let trimmed = text.trim();
    let split = trimmed
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(trimmed.len());
    let (number, unit) = trimmed.split_at(split);
    let value: f64 = number
        .parse()
        .map_err(|_| format!("{text:?}: expected a size such as 512MiB, 4GiB or 1.5GB"))?;
    let scale: f64 = match unit.trim().to_ascii_lowercase().as_str() {
        "" | "mib" | "m" => (1u64 << 20) as f64,
        "b" => 1.0,
        "kib" | "k" => 1024.0,
        "gib" | "g" => (1u64 << 30) as f64,
        "tib" | "t" => (1u64 << 40) as f64,
        "kb" => 1e3,
        "mb" => 1e6,
        "gb" => 1e9,
        "tb" => 1e12,
        other => {
            return Err(format!(
                "{text:?}: unknown unit {other:?} (B, KiB, MiB, GiB, TiB, kB, MB, GB, TB)"
            ));
        }
    };
    let bytes = value * scale;
    if !bytes.is_finite() || bytes >= u64::MAX as f64 {
        return Err(format!("{text:?}: too large"));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::parse_size;

    #[test]
    fn sizes_parse_in_every_unit_and_bad_ones_are_refused() {
        assert_eq!(parse_size("100"), Ok(100 << 20));
        assert_eq!(parse_size("512MiB"), Ok(512 << 20));
        assert_eq!(parse_size("4GiB"), Ok(4 << 30));
        assert_eq!(parse_size("1.5 gib"), Ok(3 << 29));
        assert_eq!(parse_size("2GB"), Ok(2_000_000_000));
        assert_eq!(parse_size("64kB"), Ok(64_000));
        assert_eq!(parse_size("7B"), Ok(7));
        assert_eq!(parse_size(" 3 KiB "), Ok(3072));
        for bad in [
            "",
            "MiB",
            "-1GiB",
            "1..2",
            "4 parsecs",
            "1e30TiB",
            "99999999999999999999TiB",
        ] {
            assert!(parse_size(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn this_process_reports_its_memory_on_linux() {
        if cfg!(target_os = "linux") {
            assert!(super::peak_resident_mib().is_some_and(|m| m > 0.0));
            assert!(super::total_bytes().is_some_and(|b| b > 1 << 20));
        }
    }
}
