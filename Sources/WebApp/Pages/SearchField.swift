import Todos

/// The Find field of a to-do page (the to-do list's and a shared list's)
/// and the line that says what a search found. The field stands outside
/// the page's regions, so that a refresh does not replace it while it is
/// typed in; `search.js` sends its words with every refresh and keeps them
/// in the page's address (`?search=`).
struct SearchField {
    /// The words the rows were searched for, if any.
    var search: TodoSearch?

    /// The field, holding the words.
    func render(into html: inout HTMLWriter) {
        html.element("div", [.class("todo-search"), Attribute("role", "search")]) { html in
            html.element("label", [.for("search")]) { $0.text("Find") }
            html.void(
                "input",
                [.id("search"), .type("search"), .value(search?.text ?? ""), .placeholder("Words of a title, details or place"), Attribute("dir", "auto"),
                 Attribute("maxlength", String(TodoSearch.longestText)), .data("most-words", String(TodoSearch.mostWords))]
            )
        }
    }

    /// The line that says what the search found, at the top of the list;
    /// nothing without a search.
    func result(found: Int, filter: TodoFilter = .all, into html: inout HTMLWriter) {
        guard let search else { return }
        html.element("p", [.class("search-result"), Attribute("role", "status")]) { html in
            html.text(search.found(found, filter: filter))
        }
    }
}
