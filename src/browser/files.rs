//! Files in and out: downloading text (scenario JSON, trace JSON Lines) and
//! reading a file the user picked.

use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

/// Offers `text` as a download named `name`. `Err` says why it could not.
pub fn download(name: &str, mime: &str, text: &str) -> Result<(), String> {
    let fail = |what: &str| format!("could not save {name}: {what}");
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| fail("no document"))?;
    let parts = js_sys::Array::of1(&text.into());
    let options = web_sys::BlobPropertyBag::new();
    options.set_type(mime);
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)
        .map_err(|_| fail("no Blob"))?;
    let url =
        web_sys::Url::create_object_url_with_blob(&blob).map_err(|_| fail("no object URL"))?;
    let anchor = document
        .create_element("a")
        .map_err(|_| fail("no anchor"))?
        .dyn_into::<web_sys::HtmlAnchorElement>()
        .map_err(|_| fail("no anchor"))?;
    anchor.set_href(&url);
    anchor.set_download(name);
    anchor.click();
    // The click has started the download; the URL is no longer needed.
    let _ = web_sys::Url::revoke_object_url(&url);
    Ok(())
}

/// The file input a `change` event came from.
pub fn picked_input(event: &web_sys::Event) -> Option<web_sys::HtmlInputElement> {
    use wasm_bindgen::JsCast;
    event.target()?.dyn_into().ok()
}

/// The first file picked in `input`: its name and its text (or why it could
/// not be read); `None` when none was picked. The input is cleared after,
/// so picking the same file again fires `change` again.
pub async fn take_picked(
    input: &web_sys::HtmlInputElement,
) -> Option<(String, Result<String, String>)> {
    let file = input.files()?.get(0)?;
    let text = read_file(&file).await;
    input.set_value("");
    Some((file.name(), text))
}

/// The first file dropped with `event`, with its name, if one was dropped.
pub fn dropped_file(event: &web_sys::DragEvent) -> Option<web_sys::File> {
    event.data_transfer()?.files()?.get(0)
}

/// A file's text (as UTF-8).
pub async fn read_file(file: &web_sys::File) -> Result<String, String> {
    JsFuture::from(file.text())
        .await
        .map_err(|_| format!("could not read {}", file.name()))
        .map(|value| value.as_string().unwrap_or_default())
}
