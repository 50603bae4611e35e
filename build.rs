//! Build steps of the library. With the feature `python`: the Python worker's confinement
//! primitive (`src/runtime/python/confine.c`, a CPython extension module of the stable ABI
//! that declares the few Python symbols it uses itself, so no Python headers or libpython
//! are needed) compiled into `$OUT_DIR/codemode_confine.so` by the target's C compiler as
//! the `cc` crate configures it; the library embeds the file (`include_bytes!`).

fn main() {
    #[cfg(feature = "python")]
    native_primitive();
}

#[cfg(feature = "python")]
fn native_primitive() {
    use std::path::PathBuf;
    const SOURCE: &str = "src/runtime/python/confine.c";
    println!("cargo:rerun-if-changed={SOURCE}");
    println!("cargo:rerun-if-changed=build.rs");
    let Some(out) = std::env::var_os("OUT_DIR").map(PathBuf::from) else {
        panic!("cargo sets OUT_DIR for build scripts");
    };
    let target = out.join("codemode_confine.so");
    let compiler = cc::Build::new().get_compiler();
    let mut command = compiler.to_command();
    command
        .args(["-shared", "-fPIC", "-O2", "-Wall", "-Wextra", "-Werror"])
        .args(["-fvisibility=hidden", "-o"])
        .arg(&target)
        .arg(SOURCE);
    let status = command.status();
    match status {
        Ok(status) if status.success() => {}
        Ok(status) => panic!(
            "compiling {SOURCE} with {:?} failed ({status}): a C compiler (cc, gcc or clang) and the C library's headers (linux-libc-dev) are needed",
            compiler.path()
        ),
        Err(err) => panic!(
            "cannot run the C compiler {:?} for {SOURCE}: {err}; install cc, gcc or clang (or set CC)",
            compiler.path()
        ),
    }
}
