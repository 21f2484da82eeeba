//! Tables: fitted to the terminal's `COLUMNS` when set, one row a line otherwise.

/// `table` fitted to `COLUMNS` when it is set (cells wrap); otherwise each row on one line.
pub(crate) fn fit(table: &mut comfy_table::Table) {
    let width = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<u16>().ok())
        .filter(|w| *w >= 40);
    match width {
        Some(width) => {
            table
                .set_content_arrangement(comfy_table::ContentArrangement::Dynamic)
                .set_width(width);
        }
        None => {
            table.set_content_arrangement(comfy_table::ContentArrangement::Disabled);
        }
    }
}
