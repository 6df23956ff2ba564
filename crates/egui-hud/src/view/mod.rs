//! What is drawn: the HUD's rows, plot and colours, and the details window. Takes plain
//! values (snapshots, the frame log, WHY); imports `repaint` for WHY and nothing above.

pub(crate) mod benchmark_status;
pub(crate) mod details_window;
pub(crate) mod formatted_rows;
pub(crate) mod glyph_quad;
pub(crate) mod hud_ids;
pub(crate) mod hud_palette;
pub(crate) mod hud_preset;
pub(crate) mod hud_row;
pub(crate) mod hud_view;
pub(crate) mod layer_widgets;
pub(crate) mod layout_worker;
pub(crate) mod main_readout;
pub(crate) mod placed_text;
pub(crate) mod plot_line;
pub(crate) mod readout_hover;
pub(crate) mod readout_row;
pub(crate) mod row_choice;
pub(crate) mod row_list;
pub(crate) mod text_cache;
pub(crate) mod text_quads;
pub(crate) mod value_text;
