//! The fixed prose and skeleton of both SDK sections: handlebars templates from
//! `sdk-templates/`, compiled into the binary and registered once.
//!
//! This module owns loading and filling the templates; it must not build type text (the
//! renderers hand it finished blocks, inserted verbatim: HTML escaping is off).

use std::sync::LazyLock;

use handlebars::Handlebars;
use serde::Serialize;

const TYPESCRIPT: &str = "typescript";
const PYTHON: &str = "python";

static TEMPLATES: LazyLock<Handlebars<'static>> = LazyLock::new(|| {
    let mut registry = Handlebars::new();
    registry.set_strict_mode(true);
    registry.register_escape_fn(handlebars::no_escape);
    // The templates are part of the crate, so a failure here is a bug caught by every test
    // that renders an SDK, never a property of the input.
    registry
        .register_template_string(
            TYPESCRIPT,
            include_str!("../../../sdk-templates/typescript.md.hbs"),
        )
        .expect("sdk-templates/typescript.md.hbs is a valid template");
    registry
        .register_template_string(PYTHON, include_str!("../../../sdk-templates/python.md.hbs"))
        .expect("sdk-templates/python.md.hbs is a valid template");
    registry
});

/// The blocks of the TypeScript section.
#[derive(Serialize)]
pub(crate) struct TypeScriptSection {
    /// `type` declarations of named aliases (may be empty).
    pub aliases: String,
    /// Members of `ToolArgsMap`.
    pub args: String,
    /// Members of `ToolOutputMap`.
    pub outputs: String,
}

/// The blocks of the Python section.
#[derive(Serialize)]
pub(crate) struct PythonSection {
    pub imports: String,
    pub json_value: bool,
    pub definitions: String,
    pub methods: String,
}

pub(crate) fn typescript(section: &TypeScriptSection) -> String {
    render(TYPESCRIPT, section)
}

pub(crate) fn python(section: &PythonSection) -> String {
    render(PYTHON, section)
}

fn render(name: &str, data: &impl Serialize) -> String {
    // Every field the templates name is a plain string or bool of these structs, so
    // rendering cannot fail short of a template bug, which the tests catch.
    TEMPLATES
        .render(name, data)
        .expect("the built-in SDK templates render their own section structs")
}
