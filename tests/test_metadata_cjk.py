"""Chinese, Japanese and Korean bylines: reporter credits under the headline or at the
article's end, on pages with and without an <h1>. Fixtures are invented (names, outlets and
text)."""

from __future__ import annotations

import pytest

from newscrawl.extraction.metadata import Metadata, extract_metadata
from newscrawl.extraction.metadata.authors import cjk_credit
from newscrawl.extraction.parse import parse

PROSE = "<p>" + "城市东区的新公园本周开放，市民可以沿河散步，周末还有音乐会和集市。" * 3 + "</p>"


def meta(body: str) -> Metadata:
    markup = f'<html lang="zh-CN"><head><title>新公园开放</title></head><body>{body}</body></html>'
    return extract_metadata(parse(markup), "https://news.example/a/1.html")


@pytest.mark.parametrize(("line", "names"), [
    ("记者 林小雨", "林小雨"),
    ("（记者 林小雨）", "林小雨"),
    ("（总台记者 林小雨）", "林小雨"),
    ("本报记者 林小雨 周大山", "林小雨 周大山"),
    ("本报实习生 高明 本报记者 林小雨 周大山", "高明 林小雨 周大山"),
    ("晨光报记者 林小雨 河北某县报道", "林小雨"),
    ("湖光日报·晚讯记者 林小雨", "林小雨"),
    ("（林小雨 杭州报道）", "林小雨"),
    ("作者： 林小雨", "林小雨"),
    ("作者:quietfox", "quietfox"),
    ("文/林小雨", "林小雨"),
    ("撰文：林小雨", "林小雨"),
    ("記者 陳思遠", "陳思遠"),
    ("（陳思遠 台北報道）", "陳思遠"),
    ("（記者陳思遠／台北報導）", "陳思遠"),
    ("（記者陳思遠、林美玲／高雄報導）", "陳思遠 林美玲"),
    ("本报记者 林小雨、周大山", "林小雨 周大山"),
    ("文・森田花子", "森田花子"),
    ("由林小雨张贴 @", "林小雨"),  # a blog's "posted by"
    ("由 quietfox 发表于", "quietfox"),
    # Korean: names, then the role
    ("홍길동 기자", "홍길동"),
    ("홍길동 기자 hong@news.example.kr", "홍길동"),
    ("김철수·이영희 기자", "김철수 이영희"),
    ("(서울=한빛뉴스) 홍길동 기자 = 정부는 22일 새 예산안을 발표했다.", "홍길동"),
    ("[부산=바다일보] 김철수 특파원 =", "김철수"),
])
def test_credit_lines_name_the_writers(line: str, names: str) -> None:
    assert cjk_credit(line) == names


@pytest.mark.parametrize("line", [
    "记者看到了另外一番景致",  # prose about the reporter
    "记者招待会",  # no space or colon after the role: a word, not a credit
    "责任编辑：林小雨",  # the editor
    "来源：晨光报",  # the source, an outlet
    "记者 林小雨 摄",  # a photo credit
    "整理 晨光报记者 林小雨",  # something before the role
    "由于大雨发表",  # 由于, because
    "本帖最后由 林小雨 于 2020-1-1 编辑",  # last edited by
    "기자회견에서 정부가 밝혔다",  # a press conference
    "홍길동 기자가 현장을 취재했다",  # prose about the reporter
    "가나다라마바사아 " * 12 + "기자회견",  # long words before a role word: no backtracking trap
])
def test_lines_that_are_not_credits(line: str) -> None:
    assert cjk_credit(line) is None


def test_credit_at_the_end_of_the_last_paragraph_without_an_h1() -> None:
    # An old table layout: the headline in a <font>, the credit closing the last paragraph.
    body = (f'<table><tr><td><font size="5">新公园开放</font></td></tr><tr><td>{PROSE}'
            "<p>市民对新公园评价很高。（林小雨 杭州报道）</p></td></tr></table>"
            "<p>责任编辑：周大山</p>")
    assert meta(body).authors == ("林小雨",)


def test_bracketed_reporter_credit_below_the_article() -> None:
    body = f"<h1>新公园开放</h1>{PROSE}<p>（总台记者 林小雨）</p><p>编辑：周大山</p>"
    assert meta(body).authors == ("林小雨",)


def test_credit_label_and_names_in_separate_texts() -> None:
    body = ("<h1>新公园开放</h1><p><span>本报实习生</span> <b>高明</b> "
            f"<span>本报记者</span> <b>林小雨 周大山</b></p>{PROSE}")
    assert meta(body).authors == ("高明", "林小雨", "周大山")


def test_author_label_then_name_on_the_next_text() -> None:
    body = f"<h1>新公园开放</h1><div><span>作者：</span><a>林小雨</a></div>{PROSE}"
    assert meta(body).authors == ("林小雨",)


def test_reporter_mentioned_in_prose_and_editor_are_not_authors() -> None:
    body = (f"<h1>新公园开放</h1><p>记者看到，公园里人很多。</p>{PROSE}"
            "<p>责任编辑：周大山</p>")
    assert meta(body).authors == ()


def test_chinese_day_with_clock_time_dates_a_page_without_a_label() -> None:
    body = ('<table><tr><td><font size="5">新公园开放</font></td></tr>'
            "<tr><td>NEWS.EXAMPLE　2019年4月8日 07:45　晨光报</td></tr>"
            f"<tr><td>{PROSE}<p>2018年5月1日，公园开始动工。</p></td></tr></table>")
    assert meta(body).published == "2019-04-08T07:45:00"


def test_chinese_day_without_a_time_or_label_is_not_the_publication_date() -> None:
    body = f"<table><tr><td>{PROSE}<p>2018年5月1日</p></td></tr></table>"
    assert meta(body).published is None


def meta_with_head(head: str, body: str) -> Metadata:
    markup = f'<html lang="zh-CN"><head>{head}</head><body>{body}</body></html>'
    return extract_metadata(parse(markup), "https://news.example/a/1.html")


@pytest.mark.parametrize("outlet", ["晨光新闻网", "湖光日报", "news-example.com"])
def test_outlet_in_the_author_meta_yields_to_the_reporter_credit(outlet: str) -> None:
    head = f'<meta name="author" content="{outlet}">'
    body = f"<h1>新公园开放</h1>{PROSE}<p>（记者 林小雨）</p>"
    assert meta_with_head(head, body).authors == ("林小雨",)
    assert meta_with_head(head, f"<h1>新公园开放</h1>{PROSE}").authors == (outlet,)


def test_outlet_in_a_byline_element_yields_to_the_reporter_credit() -> None:
    body = (f'<h1>新公园开放</h1><div class="article-author"><a>晨光新闻网</a></div>{PROSE}'
            "<p>晨光报记者 林小雨 杭州报道</p>")
    assert meta(body).authors == ("林小雨",)


def test_author_box_counters_are_not_names() -> None:
    body = ('<h1>新公园开放</h1><div class="author-card"><span>文章</span><b>12</b>'
            f"<span>粉丝</span><b>300</b></div>{PROSE}<p>记者 林小雨</p>")
    assert meta(body).authors == ("林小雨",)


def test_korean_dateline_credit_opens_a_long_first_paragraph() -> None:
    story = "정부는 22일 새 예산안을 발표했다. " * 20
    markup = ("<html lang='ko'><head><title>정부, 새 예산안 발표</title></head><body>"
              f"<h1>정부, 새 예산안 발표</h1><p>(서울=한빛뉴스) 홍길동 기자 = {story}</p>"
              "<p>두번째 문단.</p></body></html>")
    assert extract_metadata(parse(markup), "https://news.example/a/1").authors == ("홍길동",)


def test_bare_separators_of_chinese_titles_cut_the_site_and_channel() -> None:
    head = "<title>北京今冬首场降雪来了_新闻频道_网易新闻</title>"
    body = "<h1>北京今冬首场降雪来了</h1><p>今天清晨，北京迎来今冬首场降雪。</p>"
    assert meta_with_head(head, body).title == "北京今冬首场降雪来了"
    # A dash between digits is the headline's own ("2024-2025赛季").
    head = "<title>2024-2025赛季中超联赛开幕</title>"
    assert meta_with_head(head, "<p>正文。</p>").title == "2024-2025赛季中超联赛开幕"
    # A run of the mark is one separator; a site named "…网" signs pages without the "网".
    for site, title in (("人民网", "北京今冬首场降雪来了--人民网"),
                        ("腾讯网", "北京今冬首场降雪来了_腾讯新闻")):
        head = f'<meta property="og:site_name" content="{site}"><title>{title}</title>'
        assert meta_with_head(head, "<p>正文。</p>").title == "北京今冬首场降雪来了"
    head = "<title>新竹尖石__美樹營地 @ 史蒂文的家</title>"
    assert meta_with_head(head, "<p>正文。</p>").title == "新竹尖石__美樹營地 @ 史蒂文的家"
    # A title that nothing is cut from keeps its bare separators as written.
    head = "<title>新竹尖石_美樹營地賞楓 @ 史蒂文的家_藍天 :: 痞客邦 ::</title>"
    assert meta_with_head(head, "<p>正文。</p>").title == (
        "新竹尖石_美樹營地賞楓 @ 史蒂文的家_藍天 :: 痞客邦 ::")


@pytest.mark.parametrize("title", [
    "17种产品入选国家绿色制造名单 - 要闻云南 - 云南日报网",
    "劳伦斯：一个无法定义的“洛克菲勒”-搜狐财经",
    "Council approves the riverside housing plan – Evening Herald",
])
def test_title_without_h1_stays_whole_unless_a_chinese_site_name_ends_it(title: str) -> None:
    """The site's name here is neither declared nor the host's."""
    whole = "17种产品入选国家绿色制造名单" if "云南日报网" in title else title
    assert meta_with_head(f"<title>{title}</title>", "<p>正文内容。</p>").title == whole


@pytest.mark.parametrize("title", [
    "为现代化建设凝聚强大智慧和力量——热烈祝贺市政协会议开幕_巴彦淖尔市人民政府网",
    "市议会批准城市公园新预算_新闻频道_每日星球网",
    "市议会批准城市公园新预算-新闻-每日星球网",
    "市议会批准城市公园新预算 - 要闻 - 每日星球网",
])
def test_chinese_site_and_channel_names_end_a_title_without_h1(title: str) -> None:
    """Neither declared nor the host's (pinyin, an abbreviation): the site's and the channel's
    names are known by the words they end with."""
    headline = title.split("_")[0].split("-")[0].strip()
    assert meta_with_head(f"<title>{title}</title>", "<p>正文。</p>").title == headline
    # A headline may end the same way: with nothing after it, nothing is cut.
    head = "<title>中国正式接入国际互联网</title>"
    assert meta_with_head(head, "<p>正文。</p>").title == "中国正式接入国际互联网"


def test_h1_that_ends_a_chinese_title_after_a_space_is_the_site() -> None:
    head = "<title>土豆不“土” 土豆无“土” 松花江网</title>"
    body = "<h1>松花江网</h1><p>土豆是一种常见的食物。</p>"
    assert meta_with_head(head, body).title == "土豆不“土” 土豆无“土”"
    # The site's name first and the headline last: the <h1> is the headline.
    head = "<title>松花江网 北京今冬首场降雪来了</title>"
    body = "<h1>北京今冬首场降雪来了</h1><p>今天清晨，北京迎来今冬首场降雪。</p>"
    assert meta_with_head(head, body).title == "北京今冬首场降雪来了"


def test_a_hidden_logo_h1_gives_way_to_the_heading_the_title_holds():
    # the site's name as a hidden <h1> in the logo link; the headline an <h2>, whole in a
    # <title> that joins it to channel and site with "_" (no spaces to split words at)
    # a menu longer than the window of elements bylines are looked for in below the logo
    menu = "".join(f'<a href="/c{k}">栏目{k}</a>' for k in range(200))
    markup = ('<html lang="zh-CN"><head><title>城东新公园本周开放_城市_晨光日报</title></head>'
              '<body><div class="header"><a class="logo" href="/"><h1 class="hidden">晨光日报'
              f'</h1></a></div><div class="nav">{menu}</div><h2 class="title">城东新公园本周开放'
              '</h2><div class="author"><span class="name">林小雨</span><span class="date">'
              '2017-03-01</span></div>' + PROSE + "</body></html>")
    assert extract_metadata(parse(markup), "https://news.example/a/1.html").authors == ("林小雨",)
