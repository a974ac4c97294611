//! Writes each target's honest proof to `corpus/<target>/honest`, the seed of `cargo fuzz run`.

fn main() -> std::io::Result<()> {
    for (name, seed, _) in flockwork_fuzz::targets::TARGETS {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR"))
            .join("corpus")
            .join(name);
        std::fs::create_dir_all(&dir)?;
        std::fs::write(dir.join("honest"), seed())?;
        println!("corpus/{name}/honest");
    }
    Ok(())
}
