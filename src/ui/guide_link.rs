//! A link from a panel to the guide's page about it. The guide is built
//! into the page's own site (`book/`, see scripts/book-build.sh), so the
//! link works wherever the page is hosted and, once the service worker has
//! cached the build, offline. It opens in a new tab: nothing on the page
//! (a run, an edit, a lesson's progress) is left behind by reading it.

use leptos::prelude::*;

/// "Guide: `about`", to `book/page` (a path inside the built guide, e.g.
/// `tools/compare.html`).
pub fn guide_link(page: &'static str, about: &'static str) -> impl IntoView {
    view! {
        <a class="guide-link" href=format!("book/{page}") target="_blank" rel="noopener">
            {format!("Guide: {about}")}
        </a>
    }
}
