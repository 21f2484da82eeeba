//! Tables: fitted to the terminal's `COLUMNS` when set, else to 100 columns (cells wrap).

/// The width a table fits when `COLUMNS` is not set (shells do not export it): what a
/// terminal beside an editor shows.
const DEFAULT_WIDTH: u16 = 100;

/// `table` fitted to `COLUMNS` when it is set, else to [`DEFAULT_WIDTH`]: a cell too long for
/// its share wraps inside its column.
pub(crate) fn fit(table: &mut comfy_table::Table) {
    let width = std::env::var("COLUMNS")
        .ok()
        .and_then(|c| c.trim().parse::<u16>().ok())
        .filter(|w| *w >= 40)
        .unwrap_or(DEFAULT_WIDTH);
    table
        .set_content_arrangement(comfy_table::ContentArrangement::Dynamic)
        .set_width(width);
}
