//! Why a scenario cannot run: every load problem as `path: message`.

use leptos::prelude::*;

#[component]
pub fn ProblemList(#[prop(into)] problems: Signal<Vec<String>>) -> impl IntoView {
    view! {
        <Show when=move || problems.with(|p| !p.is_empty())>
            <div class="problems">
                <p class="problems-title">"This scenario cannot run:"</p>
                <ul role="alert">
                    {move || {
                        problems
                            .get()
                            .into_iter()
                            .map(|problem| view! { <li>{problem}</li> })
                            .collect_view()
                    }}
                </ul>
            </div>
        </Show>
    }
}
