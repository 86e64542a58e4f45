use super::*;

const PAGE: &str = "http://127.0.0.1:8080";
const LOCAL: &str = "http://localhost:8787";

/// The settings after `msgs`, and every command they asked for, in order.
fn after(mut settings: ModelSettings, msgs: Vec<SettingsMsg>) -> (ModelSettings, Vec<SettingsCmd>) {
    let cmds = msgs
        .into_iter()
        .flat_map(|msg| settings.update(msg))
        .collect();
    (settings, cmds)
}

/// Anthropic at a local address, with a model name: settings that can run.
fn local_anthropic() -> ModelSettings {
    after(
        ModelSettings::default(),
        vec![
            SettingsMsg::SourcePicked(Some(Provider::Anthropic)),
            SettingsMsg::BaseUrlTyped(LOCAL.into()),
            SettingsMsg::ModelTyped("local-model".into()),
        ],
    )
    .0
}

/// The price fields show `prices`, and the note under them starts with `note`.
fn assert_price(settings: &ModelSettings, prices: (&str, &str), note: &str) {
    assert_eq!((settings.input_price(), settings.output_price()), prices);
    assert!(
        settings.price_note().starts_with(note),
        "{}",
        settings.price_note()
    );
}

fn key(text: &str) -> ApiKey {
    ApiKey::new(text)
}

#[test]
fn a_first_visit_is_the_scripted_model_with_nothing_to_check_or_run() {
    let settings = ModelSettings::default();
    assert_eq!(settings.source(), None);
    assert!(settings.stream(), "streaming starts on");
    assert!(!settings.remember());
    assert_eq!(settings.problems(PAGE), vec![]);
    assert_eq!(
        settings.current(),
        None,
        "the scripted model needs no provider run"
    );
    assert_eq!(settings.saved(), None);
}

#[test]
fn a_remembered_key_and_saved_settings_come_back() {
    let saved = r#"{"provider":"openai_chat","base_url":"http://127.0.0.1:1234","model":"gpt-4o-mini","stream":false,"max_output_tokens":"512","input_price":"1"}"#;
    let settings = ModelSettings::restored(Some("sk-kept".into()), Some(saved));
    assert_eq!(settings.source(), Some(Provider::OpenaiChat));
    assert_eq!(settings.base_url(), "http://127.0.0.1:1234");
    assert_eq!(settings.model(), "gpt-4o-mini");
    assert!(!settings.stream());
    assert!(settings.remember(), "a kept key means Remember was on");
    assert_eq!(settings.key(), &key("sk-kept"));
    assert_eq!(settings.max_output_tokens(), "512");
    assert_eq!((settings.input_price(), settings.output_price()), ("1", ""));
}

#[test]
fn an_older_save_of_a_listed_model_gets_its_listed_price() {
    let old = serde_json::to_string(&ProviderSettings {
        model: "claude-sonnet-4-0".into(),
        ..settings(LOCAL)
    })
    .unwrap();
    let settings = ModelSettings::restored(None, Some(&old));
    assert_price(&settings, ("3", "15"), "Prefilled for ");
}

#[test]
fn an_unreadable_save_is_the_scripted_model() {
    for junk in ["not json", "{}", r#"{"provider":"smoke-signals"}"#] {
        assert_eq!(
            ModelSettings::restored(None, Some(junk)).source(),
            None,
            "{junk}"
        );
    }
}

#[test]
fn picking_another_provider_starts_at_its_address_and_picking_it_again_keeps_what_was_typed() {
    let (settings, _) = after(
        ModelSettings::default(),
        vec![SettingsMsg::SourcePicked(Some(Provider::Anthropic))],
    );
    assert_eq!(settings.base_url(), Provider::Anthropic.default_base_url());
    let (settings, _) = after(
        settings,
        vec![
            SettingsMsg::BaseUrlTyped(LOCAL.into()),
            SettingsMsg::SourcePicked(Some(Provider::Anthropic)),
        ],
    );
    assert_eq!(
        settings.base_url(),
        LOCAL,
        "the same provider again keeps the typed URL"
    );
    let (settings, _) = after(
        settings,
        vec![SettingsMsg::SourcePicked(Some(Provider::OpenaiResponses))],
    );
    assert_eq!(
        settings.base_url(),
        Provider::OpenaiResponses.default_base_url()
    );
}

#[test]
fn the_autosave_follows_each_change_of_the_settings_and_going_scripted_removes_it() {
    let (settings, cmds) = after(
        ModelSettings::default(),
        vec![SettingsMsg::SourcePicked(Some(Provider::Anthropic))],
    );
    let Some(SettingsCmd::Autosave(Some(json))) = cmds.last() else {
        panic!("no autosave: {cmds:?}");
    };
    assert_eq!(
        settings_from_json(json)
            .and_then(|s| s.settings)
            .map(|s| s.provider),
        Some(Provider::Anthropic)
    );
    // The same text again changes nothing, so nothing is written.
    let url = settings.base_url().to_string();
    let (settings, cmds) = after(settings, vec![SettingsMsg::BaseUrlTyped(url)]);
    assert_eq!(cmds, vec![]);
    let (_, cmds) = after(settings, vec![SettingsMsg::SourcePicked(None)]);
    assert_eq!(cmds, vec![SettingsCmd::Autosave(None)]);
}

#[test]
fn a_key_is_kept_only_while_remember_is_on_and_never_in_the_autosave_or_debug() {
    // Typed with Remember off: in memory only.
    let (settings, cmds) = after(
        local_anthropic(),
        vec![SettingsMsg::KeyTyped(key("sk-secret-1"))],
    );
    assert_eq!(cmds, vec![]);
    assert!(
        !format!("{settings:?}").contains("sk-secret"),
        "{settings:?}"
    );
    // Remember on keeps the key there is; a key typed then is kept too.
    let (settings, cmds) = after(
        settings,
        vec![
            SettingsMsg::RememberKeySet(true),
            SettingsMsg::KeyTyped(key("sk-secret-2")),
        ],
    );
    assert_eq!(
        cmds,
        vec![
            SettingsCmd::StoreKey(key("sk-secret-1")),
            SettingsCmd::StoreKey(key("sk-secret-2"))
        ]
    );
    // Remember off forgets it, and a key typed after is not kept.
    let (settings, cmds) = after(
        settings,
        vec![
            SettingsMsg::RememberKeySet(false),
            SettingsMsg::KeyTyped(key("sk-secret-3")),
        ],
    );
    assert_eq!(cmds, vec![SettingsCmd::ForgetKey]);
    // Whatever else is saved, the key is not.
    let (_, cmds) = after(
        settings,
        vec![SettingsMsg::ModelTyped("other-model".into())],
    );
    let [SettingsCmd::Autosave(Some(json))] = cmds.as_slice() else {
        panic!("{cmds:?}");
    };
    assert!(
        !json.contains("sk-secret") && !json.contains("key"),
        "{json}"
    );
}

#[test]
fn a_listed_model_fills_its_price_and_leaving_it_clears_only_a_price_it_filled() {
    let (settings, _) = after(
        local_anthropic(),
        vec![SettingsMsg::ModelTyped("claude-sonnet-4-0".into())],
    );
    assert_price(&settings, ("3", "15"), "Prefilled for ");
    // Leaving it for an unlisted model: the filled price goes with it.
    let (settings, _) = after(settings, vec![SettingsMsg::ModelTyped("my-model".into())]);
    assert_price(&settings, ("", ""), "No listed price");
    // A price the person typed over stays when they leave.
    let (settings, _) = after(
        settings,
        vec![
            SettingsMsg::ModelTyped("claude-sonnet-4-0".into()),
            SettingsMsg::InputPriceTyped("2.5".into()),
            SettingsMsg::ModelTyped("my-model".into()),
        ],
    );
    assert_price(&settings, ("2.5", "15"), "Your price");
}

#[test]
fn settings_that_can_run_make_a_provider_run_with_trimmed_fields_and_the_typed_price() {
    let (settings, _) = after(
        local_anthropic(),
        vec![
            SettingsMsg::ModelTyped("  local-model ".into()),
            SettingsMsg::KeyTyped(key(" sk-padded ")),
            SettingsMsg::MaxOutputTokensTyped("1_024".into()),
            SettingsMsg::InputPriceTyped("$2".into()),
            SettingsMsg::StreamingSet(false),
        ],
    );
    assert_eq!(settings.problems(PAGE), vec![]);
    let run = settings.current().expect("a provider run");
    assert_eq!(run.settings.model, "local-model");
    assert_eq!(run.key.expose(), "sk-padded");
    assert_eq!(run.max_output_tokens, Some(1024));
    assert_eq!(run.pricing.input_usd_per_mtok, 2.0);
    assert_eq!(run.pricing.output_usd_per_mtok, 0.0);
    assert!(!run.settings.stream);
}

#[test]
fn settings_that_cannot_run_say_why_per_field_and_start_no_run() {
    let (settings, _) = after(
        local_anthropic(),
        vec![
            SettingsMsg::BaseUrlTyped("nope".into()),
            SettingsMsg::ModelTyped(" ".into()),
            SettingsMsg::MaxOutputTokensTyped("lots".into()),
        ],
    );
    let fields: Vec<SettingField> = settings.problems(PAGE).iter().map(|(f, _)| *f).collect();
    assert_eq!(
        fields,
        vec![
            SettingField::BaseUrl,
            SettingField::Model,
            SettingField::MaxOutputTokens
        ]
    );
    assert_eq!(settings.current(), None);
}

#[test]
fn saved_settings_round_trip_and_junk_means_scripted() {
    let settings = ProviderSettings {
        provider: Provider::OpenaiChat,
        base_url: "http://127.0.0.1:1234".into(),
        model: "scripted".into(),
        stream: false,
    };
    // An older save: the settings alone.
    let old = serde_json::to_string(&settings).unwrap();
    let saved = settings_from_json(&old).unwrap();
    assert_eq!(saved.settings.as_ref(), Some(&settings));
    assert_eq!(saved.max_output_tokens, "");
    let saved = SavedModel {
        max_output_tokens: "512".into(),
        input_price: "3".into(),
        ..saved
    };
    let json = serde_json::to_string(&saved).unwrap();
    assert!(!json.contains("key"), "{json}");
    assert_eq!(settings_from_json(&json), Some(saved));
    assert_eq!(settings_from_json("not json"), None);
    assert_eq!(settings_from_json("{}"), None);
}

fn settings(base_url: &str) -> ProviderSettings {
    ProviderSettings {
        provider: Provider::Anthropic,
        base_url: base_url.into(),
        model: "m".into(),
        stream: true,
    }
}

#[test]
fn a_listed_price_is_recognised_as_typed_back() {
    let sonnet = prices::listed_price("claude-sonnet-4-0").unwrap();
    assert_eq!(price_text(sonnet.input_usd_per_mtok), "3");
    assert_eq!(price_text(0.8), "0.8");
    assert!(holds_price("3", "15", sonnet));
    assert!(holds_price(" 3.0", "$15", sonnet));
    assert!(!holds_price("3", "16", sonnet));
    assert!(!holds_price("", "15", sonnet));
}

#[test]
fn every_field_says_what_is_wrong_in_the_forms_order() {
    let key = ApiKey::new("sk");
    let fine = setting_problems(&settings(LOCAL), &key, "", "", "", PAGE);
    assert_eq!(fine, vec![]);
    let bad = setting_problems(&settings("nope"), &key, "0", "-1", "x", PAGE);
    let fields: Vec<SettingField> = bad.iter().map(|(f, _)| *f).collect();
    assert_eq!(
        fields,
        vec![
            SettingField::BaseUrl,
            SettingField::MaxOutputTokens,
            SettingField::InputPrice,
            SettingField::OutputPrice
        ]
    );
    assert_eq!(bad[2].1, "Input price: a price cannot be negative (-1)");
}
